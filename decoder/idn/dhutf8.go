package idn

import (
	"strings"
	"unicode/utf8"
)

// Double-hyphened UTF-8: ASCII is written as itself, each byte of a non-ASCII
// character's UTF-8 as its two hexadecimal digits joined by "--" (œ, C5 93,
// is "C--59--3"), and a run of hyphens from the label itself as "----2" for
// "--" and "----3" for "---"; a longer run is split into such pieces, threes
// first but never leaving a single hyphen over (four is "----2----2").
// Bytes are written uppercase, the ASCII of the label as it was.

// hasDHShape reports whether label, ASCII only, holds a hexadecimal digit,
// "--", hexadecimal digit sequence or a "----2"/"----3" escape.
func hasDHShape(label string) bool {
	for i := 0; i < len(label); i++ {
		c := label[i]
		if c >= 0x80 {
			return false
		}
		if dhByteAt(label, i) || dhEscapeAt(label, i) > 0 {
			for ; i < len(label); i++ { // the rest must be ASCII too
				if label[i] >= 0x80 {
					return false
				}
			}
			return true
		}
	}
	return false
}

// dhByteAt reports whether s[i:] starts with X--Y, X and Y hexadecimal.
func dhByteAt(s string, i int) bool {
	return i+3 < len(s) && isHexDigit(s[i]) && s[i+1] == '-' && s[i+2] == '-' && isHexDigit(s[i+3])
}

// dhEscapeAt returns the number of hyphens the escape at s[i:] stands for,
// or 0 when s[i:] does not start with "----2" or "----3".
func dhEscapeAt(s string, i int) int {
	if i+4 < len(s) && s[i:i+4] == "----" && (s[i+4] == '2' || s[i+4] == '3') {
		return int(s[i+4] - '0')
	}
	return 0
}

// encodeDH writes label as double-hyphened UTF-8.
func encodeDH(label string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(label); i++ {
		c := label[i]
		switch {
		case c >= 0x80:
			b.WriteByte(hex[c>>4])
			b.WriteString("--")
			b.WriteByte(hex[c&0xF])
		case c == '-':
			n := 1
			for i+n < len(label) && label[i+n] == '-' {
				n++
			}
			i += n - 1
			if n == 1 {
				b.WriteByte('-')
				continue
			}
			for n > 0 {
				k := 3
				if n == 2 || n == 4 {
					k = 2
				}
				b.WriteString("----")
				b.WriteByte('0' + byte(k))
				n -= k
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// decodeDH reads a label that has the double-hyphened shape.
func decodeDH(label string) (string, error) {
	fail := func(off int, reason string) (string, error) {
		return "", &LegacyError{Label: label, Form: formDHUTF8.String(), Offset: off, Reason: reason}
	}
	out := make([]byte, 0, len(label))
	for i := 0; i < len(label); {
		if n := dhEscapeAt(label, i); n > 0 {
			out = append(out, "---"[:n]...)
			i += 5
			continue
		}
		if dhByteAt(label, i) {
			out = append(out, byte(digitValue(label[i])<<4|digitValue(label[i+3])))
			i += 4
			continue
		}
		if label[i] == '-' && i+1 < len(label) && label[i+1] == '-' {
			return fail(i, `hyphens that are neither an escape nor part of a byte`)
		}
		out = append(out, label[i])
		i++
	}
	if !utf8.Valid(out) {
		return fail(-1, "the bytes written are not UTF-8")
	}
	return string(out), nil
}
