package charset

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
)

// Encode turns text into c's bytes. A character c cannot encode is an
// *UnencodableError, or, with ncr, the decimal numeric character reference
// "&#NNNN;" that a browser submits in its place (HTML § 4.10.21.7, "encoding
// the form data set" with an "html" error mode; x/text's
// encoding.HTMLEscapeUnsupported writes the same decimal form).
//
// In ISO-2022-JP, SO, SI and ESC (U+000E, U+000F, U+001B) cannot be encoded
// either: written raw they would switch the decoder's state and hide or
// forge the text after them. The Encoding Standard's iso-2022-jp encoder
// (§ 13.2.2) refuses them with U+FFFD as the code point, so with ncr each
// becomes "&#65533;".
func (c *Charset) Encode(s string, ncr bool) ([]byte, error) {
	if c.utf8 {
		if !utf8.ValidString(s) {
			return nil, &UnencodableError{Charset: c.name, Rune: utf8.RuneError, Offset: firstInvalidUTF8(s)}
		}
		return []byte(s), nil
	}
	if c.name == "iso-2022-jp" && strings.ContainsAny(s, jpControls) {
		if !ncr {
			return nil, c.unencodable(s)
		}
		s = jpControlsNCR.Replace(s)
	}
	e := c.enc.NewEncoder()
	if ncr {
		e = encoding.HTMLEscapeUnsupported(e)
	}
	b, err := e.Bytes([]byte(s))
	if err == nil {
		return b, nil
	}
	return nil, c.unencodable(s)
}

const jpControls = "\x0E\x0F\x1B"

var jpControlsNCR = strings.NewReplacer("\x0E", "&#65533;", "\x0F", "&#65533;", "\x1B", "&#65533;")

// unencodable finds the first rune of s that c cannot encode: the x/text
// error does not say which.
func (c *Charset) unencodable(s string) error {
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], replacement) {
			return &UnencodableError{Charset: c.name, Rune: r, Offset: i}
		}
		if c.name == "iso-2022-jp" && r < utf8.RuneSelf && strings.ContainsRune(jpControls, r) {
			return &UnencodableError{Charset: c.name, Rune: r, Offset: i}
		}
		if _, err := c.enc.NewEncoder().String(string(r)); err != nil {
			return &UnencodableError{Charset: c.name, Rune: r, Offset: i}
		}
	}
	return &UnencodableError{Charset: c.name, Rune: utf8.RuneError, Offset: 0}
}

func firstInvalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return len(s)
}
