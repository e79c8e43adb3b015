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
// holds the offset of each such '%' within s. When s needs no change it is
// returned as it is, so the common case allocates nothing; otherwise the
// result is the one allocation.
func unescape(s string, mode escapeMode) (out string, bad []int) {
	pct := strings.IndexByte(s, '%')
	plus := -1
	if mode == modeForm {
		plus = strings.IndexByte(s, '+')
	}
	if pct < 0 && plus < 0 {
		return s, nil
	}
	// Each valid escape shrinks three bytes to one; a malformed one does
	// not, so room is left for the worst case too.
	buf := make([]byte, len(s))
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && unhexTable[s[i+1]] < 16 && unhexTable[s[i+2]] < 16:
			buf[w] = unhexTable[s[i+1]]<<4 | unhexTable[s[i+2]]
			w++
			i += 3
		case c == '%':
			bad = append(bad, i)
			buf[w] = c
			w++
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
			n := copy(buf[w:], s[i:j])
			if mode == modeForm {
				for k := w; k < w+n; k++ {
					if buf[k] == '+' {
						buf[k] = ' '
					}
				}
			}
			w += n
			i = j
		}
	}
	// buf is never written again: handing it out as a string is what
	// strings.Builder does, without Builder's per-byte checks.
	return unsafe.String(unsafe.SliceData(buf), w), bad
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
