package decoder

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// expandNCRs turns the numeric character references a browser writes for
// characters its form's charset cannot encode (HTML § 4.10.21.7: "&#" then
// the code point in decimal, then ";") back into characters; hexadecimal
// references ("&#x5370;") are read too. A reference to a surrogate, to zero
// or beyond U+10FFFF is not a character: it stays as written, and bad
// counts such references and keeps the first for a warning.
func expandNCRs(s string) (string, badNCRs) {
	var b strings.Builder
	var bad badNCRs
	for {
		i := strings.Index(s, "&#")
		if i < 0 {
			b.WriteString(s)
			return b.String(), bad
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
			if bad.n == 0 {
				bad.first = ref[:n]
			}
			bad.n++
			b.WriteString(ref[:n])
		default:
			b.WriteRune(r)
		}
		s = ref[n:]
	}
}

// badNCRs counts the references expandNCRs keeps as written, and keeps the
// first of them.
type badNCRs struct {
	n     int
	first string
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
