package decoder

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// expandNCRs turns the numeric character references a browser writes for
// characters its form's charset cannot encode (HTML § 4.10.21.7: "&#" then
// the code point in decimal, then ";") back into characters; hexadecimal
// references ("&#x5370;") are read too. A reference to a surrogate, to zero
// or beyond U+10FFFF is not a character: it stays as written, with a warning.
func expandNCRs(s string) (string, []string) {
	var b strings.Builder
	var warns []string
	for {
		i := strings.Index(s, "&#")
		if i < 0 {
			b.WriteString(s)
			return b.String(), warns
		}
		b.WriteString(s[:i])
		ref := s[i:]
		r, n := parseNCR(ref)
		switch {
		case n == 0:
			b.WriteString("&#")
			s = ref[2:]
			continue
		case r == 0 || r > utf8.MaxRune || 0xD800 <= r && r <= 0xDFFF:
			warns = append(warns, fmt.Sprintf("character reference %q is not a character, kept as written", ref[:n]))
			b.WriteString(ref[:n])
		default:
			b.WriteRune(r)
		}
		s = ref[n:]
	}
}

// parseNCR reads "&#NNN;" or "&#xHHH;" at the head of s; n is 0 when s
// holds no complete reference.
func parseNCR(s string) (r rune, n int) {
	digits, base := s[2:], 10
	if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base = digits[1:], 16
	}
	end := strings.IndexByte(digits, ';')
	if end < 1 || end > 8 {
		return 0, 0
	}
	v, err := strconv.ParseUint(digits[:end], base, 32)
	if err != nil || digits[0] == '+' || digits[0] == '-' {
		return 0, 0
	}
	return rune(v), len(s) - len(digits) + end + 1
}
