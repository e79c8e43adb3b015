package decoder

import (
	"strings"
	"unsafe"
)

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
// counts them and keeps the offsets within s of the first few. When s needs no change it is
// returned as it is, so the common case allocates nothing; otherwise the
// result is the one allocation (a malformed escape may cost one more).
func unescape(s string, mode escapeMode) (out string, bad offsets) {
	pct := strings.IndexByte(s, '%')
	plus := -1
	if mode == modeForm {
		plus = strings.IndexByte(s, '+')
	}
	if pct < 0 && plus < 0 {
		return s, bad
	}
	// Each escape shrinks three bytes to one: the result is sized for all
	// of them being valid, and append grows it past a malformed one, which
	// keeps its bytes (rare, and each is reported). Sizing for the worst
	// case instead would hold three times the memory a heavily escaped
	// value needs.
	size := len(s)
	if pct >= 0 {
		size -= 2 * strings.Count(s[pct:], "%")
	}
	buf := make([]byte, 0, max(size, 0))
	for i := 0; i < len(s); {
		switch {
		case s[i] == '%' && i+2 < len(s) && unhexTable[s[i+1]]|unhexTable[s[i+2]] < 16:
			// A run of escapes, as in every non-ASCII value: one test for
			// two escapes (0xFF, not a digit, survives the OR), then one
			// for the last, on a suffix whose length the compiler checks.
			t := s[i:]
			for len(t) >= 6 && t[0] == '%' && t[3] == '%' { // two at a time
				a1, a2, b1, b2 := unhexTable[t[1]], unhexTable[t[2]], unhexTable[t[4]], unhexTable[t[5]]
				if a1|a2|b1|b2 >= 16 {
					break
				}
				buf = append(buf, a1<<4|a2, b1<<4|b2)
				t = t[6:]
			}
			for len(t) >= 3 && t[0] == '%' {
				hi, lo := unhexTable[t[1]], unhexTable[t[2]]
				if hi|lo >= 16 {
					break
				}
				buf = append(buf, hi<<4|lo)
				t = t[3:]
			}
			i = len(s) - len(t)
		case s[i] == '%':
			bad.add(i)
			buf = append(buf, '%')
			i++
		default:
			// Copy the run of bytes up to the next '%' at once, turning
			// '+' into ' ' on the way in form mode.
			j := -1
			if pct >= 0 {
				j = strings.IndexByte(s[i:], '%')
			}
			if j < 0 {
				pct = -1 // no '%' left: skip the search from now on
				j = len(s)
			} else {
				j += i
			}
			w := len(buf)
			buf = append(buf, s[i:j]...)
			if mode == modeForm {
				run := buf[w:]
				for k, c := range run {
					if c == '+' {
						run[k] = ' '
					}
				}
			}
			i = j
		}
	}
	// buf is never written again: handing it out as a string is what
	// strings.Builder does, without Builder's per-byte checks.
	return unsafe.String(unsafe.SliceData(buf), len(buf)), bad
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
