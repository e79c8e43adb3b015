package idn

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// A host that starts with "[" is an IPv6 address
// (https://url.spec.whatwg.org/#concept-ipv6-parser). net/netip parses the
// text form of RFC 4291 §2.2, which is the same language as the URL
// Standard's IPv6 parser except that netip also takes a zone ("%eth0"),
// which the URL Standard has no syntax for; that is rejected here.

var (
	errIPv6Unclosed = errors.New("IPv6 address is missing its closing ']'")
	errIPv6Zone     = errors.New("IPv6 address has a zone, which URLs cannot carry")
	errIPv6NotIPv6  = errors.New("bracketed host is not an IPv6 address")
)

// parseIPv6 parses a bracketed host "[...]".
func parseIPv6(s string) (netip.Addr, error) {
	if !strings.HasSuffix(s, "]") || len(s) < 2 {
		return netip.Addr{}, errIPv6Unclosed
	}
	inner := s[1 : len(s)-1]
	if strings.IndexByte(inner, '%') >= 0 {
		return netip.Addr{}, errIPv6Zone
	}
	a, err := netip.ParseAddr(inner)
	if err != nil {
		return netip.Addr{}, err
	}
	if !a.Is6() {
		return netip.Addr{}, errIPv6NotIPv6
	}
	return a, nil
}

// serializeIPv6 is https://url.spec.whatwg.org/#concept-ipv6-serializer,
// brackets included as the host serializer adds them. It differs from
// netip.Addr.String in never writing an embedded IPv4 address in dotted
// form: "::ffff:1.2.3.4" serializes as "[::ffff:102:304]".
func serializeIPv6(a netip.Addr) string {
	b16 := a.As16()
	var pieces [8]uint16
	for i := range pieces {
		pieces[i] = uint16(b16[2*i])<<8 | uint16(b16[2*i+1])
	}
	// Compress the first longest run of two or more zero pieces.
	compress, best := -1, 1
	for i := 0; i < 8; {
		if pieces[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && pieces[j] == 0 {
			j++
		}
		if j-i > best {
			compress, best = i, j-i
		}
		i = j
	}
	out := []byte{'['}
	for i := 0; i < 8; i++ {
		if i == compress {
			if i == 0 {
				out = append(out, ':')
			}
			out = append(out, ':')
			i += best - 1
			continue
		}
		out = strconv.AppendUint(out, uint64(pieces[i]), 16)
		if i < 7 {
			out = append(out, ':')
		}
	}
	return string(append(out, ']'))
}
