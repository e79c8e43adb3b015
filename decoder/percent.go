package decoder

import "strings"

// escapeMode says which rules of percent-decoding apply.
type escapeMode int

const (
	// modeForm is application/x-www-form-urlencoded (WHATWG URL § 5.1):
	// '+' is a space.
	modeForm escapeMode = iota
	// modeWord is an ISINDEX word or a path segment (RFC 3986 § 2.1): '+'
	// stands for itself.
	modeWord
)

// unescape percent-decodes s once. A '%' not followed by two hex digits is
// kept as it is, as the WHATWG percent-decode algorithm (URL § 1.3) does; bad
// holds the offset of each such '%' within s. When s needs no change it is
// returned as it is, so the common case allocates nothing.
func unescape(s string, mode escapeMode) (out string, bad []int) {
	i := strings.IndexAny(s, "%+")
	if i < 0 || mode == modeWord && strings.IndexByte(s, '%') < 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+' && mode == modeForm:
			b.WriteByte(' ')
		case c == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		case c == '%':
			bad = append(bad, i)
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), bad
}

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
