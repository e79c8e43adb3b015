package charset

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
)

// Encode turns text into c's bytes. A character c cannot encode is an
// *UnencodableError, or, with ncr, the decimal numeric character reference
// "&#NNNN;" that a browser submits in its place (HTML § 4.10.21.7, "encoding
// the form data set" with an "html" error mode; x/text's
// encoding.HTMLEscapeUnsupported writes the same decimal form). Invalid
// UTF-8 is an *UnencodableError for U+FFFD at its offset; with ncr it is
// taken as U+FFFD, which is what a browser's string holds in its place.
//
// In ISO-2022-JP, SO, SI and ESC (U+000E, U+000F, U+001B) cannot be encoded
// either: written raw they would switch the decoder's state and hide or
// forge the text after them. The Encoding Standard's iso-2022-jp encoder
// (§ 13.2.2) refuses them with U+FFFD as the code point, so with ncr each
// becomes "&#65533;". Likewise gb18030 and gbk refuse the few Private Use
// Area characters (U+E5E5, U+E78D-U+E796, ...) that no byte sequence
// decodes to any more: x/text would write bytes that decode to another
// character.
func (c *Charset) Encode(s string, ncr bool) ([]byte, error) {
	if c.utf8 {
		if !utf8.ValidString(s) {
			return nil, &UnencodableError{Charset: c.name, Rune: utf8.RuneError, Offset: firstInvalidUTF8(s)}
		}
		return []byte(s), nil
	}
	if !ncr && !utf8.ValidString(s) {
		// Some x/text encoders (GB18030's) write U+FFFD for invalid UTF-8
		// instead of failing: refuse it here for all.
		return nil, &UnencodableError{Charset: c.name, Rune: utf8.RuneError, Offset: firstInvalidUTF8(s)}
	}
	if c.refusesAny(s) {
		if !ncr {
			return nil, c.unencodable(s)
		}
		s = c.refusedAsNCR(s)
	}
	e := c.Encoding().NewEncoder()
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

// refuses reports the characters the Encoding Standard's encoder for c
// refuses and x/text's would write as bytes that decode to something else.
func (c *Charset) refuses(r rune) bool {
	switch c.name {
	case "iso-2022-jp":
		return r < utf8.RuneSelf && strings.ContainsRune(jpControls, r)
	case "gb18030", "gbk":
		return gbRefuses(c.name == "gbk", r)
	}
	return false
}

func (c *Charset) refusesAny(s string) bool {
	switch c.name {
	case "iso-2022-jp":
		return strings.ContainsAny(s, jpControls)
	case "gb18030", "gbk":
		return strings.IndexFunc(s, c.refuses) >= 0
	}
	return false
}

// refusedAsNCR writes each refused character as the reference a browser
// sends: the character's own number, or U+FFFD's for the ISO-2022-JP
// controls, which the standard's encoder reports as U+FFFD.
func (c *Charset) refusedAsNCR(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case !c.refuses(r):
			b.WriteRune(r)
		case c.name == "iso-2022-jp":
			b.WriteString("&#65533;")
		default:
			b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
		}
	}
	return b.String()
}

// unencodable finds the first rune of s that c cannot encode: the x/text
// error does not say which.
func (c *Charset) unencodable(s string) error {
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], replacement) {
			return &UnencodableError{Charset: c.name, Rune: r, Offset: i}
		}
		if c.refuses(r) {
			return &UnencodableError{Charset: c.name, Rune: r, Offset: i}
		}
		if _, err := c.Encoding().NewEncoder().String(string(r)); err != nil {
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
