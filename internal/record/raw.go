package record

import (
	"encoding/base64"
	"net/url"
	"strings"
)

// NewRaw is the raw object of a request: its QUERY_STRING, CONTENT_TYPE,
// urlencoded or text/plain body, and multipart text parts, escaped as the
// package documentation says.
func NewRaw(query, contentType, body string, parts []Part) Raw {
	if parts == nil {
		parts = []Part{}
	}
	return Raw{Query: escape(query, false), ContentType: escape(contentType, false), Body: EscapeBody(body), Parts: parts}
}

// NewPart is a multipart text part as raw.parts holds it.
func NewPart(name, value string) Part {
	return Part{Name: EscapeBody(name), Base64: base64.StdEncoding.EncodeToString([]byte(value))}
}

// EscapeBody percent-encodes '%', every byte below 0x20 and every byte
// from 0x80 up, with upper-case hex digits, and leaves every other byte as
// it is: the result is valid UTF-8 that JSON carries unchanged, and
// percent-decoding it (UnescapeBody, or any percent-decoder that leaves
// '+' alone) gives b back byte for byte. It is at most three times b.
func EscapeBody(b string) string { return escape(b, true) }

// escape percent-encodes the bytes below 0x20 and from 0x80 up, and '%'
// too when percent is set. A query keeps its '%': its escapes decode as
// the bytes they stand for, as a bare byte does.
func escape(s string, percent bool) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if needsEscape(s[i], percent) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*n)
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if needsEscape(c, percent) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func needsEscape(c byte, percent bool) bool {
	return c < 0x20 || c >= 0x80 || percent && c == '%'
}

// UnescapeBody is EscapeBody undone: the body's bytes. A '%' not followed
// by two hex digits is an error (a *url.EscapeError), which no body that
// EscapeBody wrote holds.
func UnescapeBody(s string) (string, error) {
	// PathUnescape percent-decodes and leaves '+' alone, which is exactly
	// the inverse wanted.
	return url.PathUnescape(s)
}

// Value is the part's bytes.
func (p Part) Value() (string, error) {
	b, err := base64.StdEncoding.DecodeString(p.Base64)
	return string(b), err
}

// RawName is the part's name as it was sent.
func (p Part) RawName() (string, error) { return UnescapeBody(p.Name) }
