package charset

import (
	"unicode/utf8"

	"golang.org/x/text/encoding"
)

// Encode turns text into c's bytes. A character c cannot encode is an
// *UnencodableError, or, with ncr, the decimal numeric character reference
// "&#NNNN;" that a browser submits in its place (HTML § 4.10.21.7, "encoding
// the form data set" with an "html" error mode).
func (c *Charset) Encode(s string, ncr bool) ([]byte, error) {
	if c.utf8 {
		if !utf8.ValidString(s) {
			return nil, &UnencodableError{Charset: c.name, Rune: utf8.RuneError, Offset: firstInvalidUTF8(s)}
		}
		return []byte(s), nil
	}
	e := c.enc.NewEncoder()
	if ncr {
		e = encoding.HTMLEscapeUnsupported(e)
	}
	b, err := e.Bytes([]byte(s))
	if err == nil {
		return b, nil
	}
	// Find which rune failed: the x/text error does not say.
	for i, r := range s {
		if _, err := c.enc.NewEncoder().String(string(r)); err != nil || r == utf8.RuneError && !utf8.ValidString(s[i:i+1]) {
			return nil, &UnencodableError{Charset: c.name, Rune: r, Offset: i}
		}
	}
	return nil, &UnencodableError{Charset: c.name, Rune: utf8.RuneError, Offset: 0}
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
