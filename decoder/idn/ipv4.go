package idn

import (
	"errors"
	"strconv"
	"strings"
)

// The URL Standard treats a domain that ends in a number as an IPv4 address
// (https://url.spec.whatwg.org/#concept-ipv4-parser), in the lenient
// inet_aton(3) syntax browsers inherited: each part may be decimal, octal
// with a leading 0, or hexadecimal with 0x, and the last part fills the
// remaining bytes, so "0x7f.1" is 127.0.0.1. Go's net/netip accepts only the
// strict dotted-decimal form, hence this parser.

var (
	errIPv4TooManyParts = errors.New("IPv4 address has more than four parts")
	errIPv4BadNumber    = errors.New("IPv4 part is not a number")
	errIPv4OutOfRange   = errors.New("IPv4 part is out of range")
)

// endsInANumber is https://url.spec.whatwg.org/#ends-in-a-number-checker.
func endsInANumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4Number is https://url.spec.whatwg.org/#ipv4-number-parser. Values
// too large for uint64 saturate: they fail the range checks all the same.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, true
	}
	for i := 0; i < len(s); i++ {
		if digitValue(s[i]) >= base {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil { // only range errors remain possible
		return ^uint64(0), true
	}
	return n, true
}

func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

// parseIPv4 is https://url.spec.whatwg.org/#concept-ipv4-parser.
func parseIPv4(s string) (uint32, error) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return 0, errIPv4TooManyParts
	}
	numbers := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return 0, errIPv4BadNumber
		}
		numbers[i] = n
	}
	last := len(numbers) - 1
	for _, n := range numbers[:last] {
		if n > 255 {
			return 0, errIPv4OutOfRange
		}
	}
	if numbers[last] >= 1<<(8*(5-len(numbers))) {
		return 0, errIPv4OutOfRange
	}
	ip := numbers[last]
	for i, n := range numbers[:last] {
		ip += n << (8 * (3 - i))
	}
	return uint32(ip), nil
}

// serializeIPv4 is https://url.spec.whatwg.org/#concept-ipv4-serializer.
func serializeIPv4(ip uint32) string {
	b := make([]byte, 0, 15)
	for i := 3; i >= 0; i-- {
		b = strconv.AppendUint(b, uint64(ip>>(8*i)&0xFF), 10)
		if i > 0 {
			b = append(b, '.')
		}
	}
	return string(b)
}
