package idn

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// UTF-5, draft-jseng-utf5-01: a code point is written as its hexadecimal
// digits without leading zeros (U+0000 is a single digit 0), each digit a
// quintet whose high bit is set on the first digit only. Quintets are
// written as the characters 0-9 A-V, so a first digit 0-F appears as G-V and
// a following digit as 0-9 A-F. In a domain label, "---" after the first
// character marks the label as UTF-5 ("triple-hyphened"); see legacy.go for
// where that convention comes from.

const utf5Mark = "---"

func isUTF5First(c byte) bool { return 'G' <= c&^0x20 && c&^0x20 <= 'V' }

func isHexDigit(c byte) bool { return digitValue(c) < 16 }

// hasUTF5Shape reports whether label is one letter G-V, "---", then only
// characters 0-9 A-V: the shape of a triple-hyphened UTF-5 label.
func hasUTF5Shape(label string) bool {
	if len(label) < 1+len(utf5Mark) || !isUTF5First(label[0]) || label[1:4] != utf5Mark {
		return false
	}
	for i := 4; i < len(label); i++ {
		if c := label[i]; !isHexDigit(c) && !isUTF5First(c) {
			return false
		}
	}
	return true
}

// encodeUTF5 writes label as triple-hyphened UTF-5.
func encodeUTF5(label string) string {
	var b strings.Builder
	for _, r := range label {
		n := 1
		for r>>(4*n) != 0 {
			n++
		}
		for i := n - 1; i >= 0; i-- {
			d := byte(r>>(4*i)) & 0xF
			if i == n-1 {
				b.WriteByte('G' + d)
			} else {
				b.WriteByte("0123456789ABCDEF"[d])
			}
		}
	}
	s := b.String()
	return s[:1] + utf5Mark + s[1:]
}

// decodeUTF5 reads a label that has the UTF-5 shape.
func decodeUTF5(label string) (string, error) {
	fail := func(off int, format string, args ...any) error {
		return &LegacyError{Label: label, Form: formUTF5.String(), Offset: off, Reason: fmt.Sprintf(format, args...)}
	}
	var out []byte
	var r rune
	start := -1
	flush := func() error {
		if 0xD800 <= r && r <= 0xDFFF {
			return fail(start, "U+%X is a surrogate, not a Unicode scalar value", r)
		}
		out = utf8.AppendRune(out, r)
		return nil
	}
	for i := 0; i < len(label); i++ {
		if 1 <= i && i < 4 { // the "---" mark
			continue
		}
		c := label[i]
		if isUTF5First(c) {
			if start >= 0 {
				if err := flush(); err != nil {
					return "", err
				}
			}
			r, start = rune(c&^0x20-'G'), i
			continue
		}
		if r > utf8.MaxRune>>4 {
			return "", fail(start, "code point above U+10FFFF")
		}
		r = r<<4 | rune(digitValue(c))
	}
	if err := flush(); err != nil {
		return "", err
	}
	return string(out), nil
}
