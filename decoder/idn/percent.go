package idn

import (
	"errors"
	"net/url"
	"strings"
	"unicode/utf8"

	xunicode "golang.org/x/text/encoding/unicode"
)

// decodeHostText is step 4 of the URL Standard's host parser
// (https://url.spec.whatwg.org/#concept-host-parser): percent-decode the host
// (https://url.spec.whatwg.org/#percent-decode), then "UTF-8 decode without
// BOM" it (https://encoding.spec.whatwg.org/#utf-8-decode-without-bom): a
// leading U+FEFF is kept (UTS #46 later maps it away) and ill-formed bytes
// become U+FFFD (which UTS #46 then rejects).
//
// The standard leaves a "%" that does not start a valid escape in place; as
// "%" is a forbidden domain code point such a host always fails later, so the
// stricter net/url unescaper loses nothing, and its error is reported as that
// forbidden code point. decoded reports whether some %XX escape was present.
func decodeHostText(raw string) (text string, decoded bool, err error) {
	if strings.IndexByte(raw, '%') < 0 {
		return toValidUTF8(raw), false, nil
	}
	bytes, err := url.PathUnescape(raw)
	if err != nil {
		var ee url.EscapeError
		if errors.As(err, &ee) {
			return "", false, &ForbiddenCodePointError{Host: raw, Char: '%', Offset: badEscapeOffset(raw)}
		}
		return "", false, err
	}
	return toValidUTF8(bytes), true, nil
}

// utf8NoBOM is x/text's UTF-8 decoder, which neither strips nor adds a BOM and
// replaces ill-formed sequences with U+FFFD the way the Encoding Standard's
// UTF-8 decoder does (one U+FFFD per maximal ill-formed subpart).
var utf8NoBOM = xunicode.UTF8

func toValidUTF8(b string) string {
	if utf8.ValidString(b) { // the decoder would return it unchanged
		return b
	}
	s, err := utf8NoBOM.NewDecoder().String(b)
	if err != nil { // cannot happen: the decoder replaces, never fails
		return strings.ToValidUTF8(b, "\uFFFD")
	}
	return s
}

// badEscapeOffset returns the offset of the first "%" in s that is not
// followed by two hexadecimal digits, or -1.
func badEscapeOffset(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || digitValue(s[i+1]) > 15 || digitValue(s[i+2]) > 15) {
			return i
		}
	}
	return -1
}
