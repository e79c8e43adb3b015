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
	// Each valid escape shrinks three bytes to one.
	b.Grow(max(len(s)-2*strings.Count(s[i:], "%"), len(s)/3))
	b.WriteString(s[:i])
	for i < len(s) {
		switch c := s[i]; c {
		case '+':
			if mode == modeForm {
				c = ' '
			}
			b.WriteByte(c)
			i++
		case '%':
			if i+2 < len(s) {
				if hi, lo := unhexTable[s[i+1]], unhexTable[s[i+2]]; hi < 16 && lo < 16 {
					b.WriteByte(hi<<4 | lo)
					i += 3
					continue
				}
			}
			bad = append(bad, i)
			b.WriteByte(c)
			i++
		default:
			// Copy the run of plain bytes up to the next '%' or '+' at once.
			j := i + 1
			for j < len(s) && s[j] != '%' && s[j] != '+' {
				j++
			}
			b.WriteString(s[i:j])
			i = j
		}
	}
	return b.String(), bad
}

// unhexTable maps a byte to its value as a hex digit, or to 0xFF.
const unhexTable = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\xff\xff\xff\xff\xff\xff" +
	"\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
