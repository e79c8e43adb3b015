package idn

import (
	"math/rand/v2"
	"net/netip"
	"testing"
)

func TestEndsInANumber(t *testing.T) {
	tests := []struct {
		name, in string
		want     bool
	}{
		{"a dotted quad ends in a number", "1.2.3.4", true},
		{"a trailing dot is ignored", "1.2.3.4.", true},
		{"a name ending in decimal digits ends in a number", "foo.09", true},
		{"a name ending in 0x ends in a number", "foo.0x", true},
		{"a name ending in hex ends in a number", "foo.0xff", true},
		{"0x followed by a non-hex letter is a name", "foo.0xg", false},
		{"a name is not a number", "example.com", false},
		{"a lone dot is not a number", ".", false},
		{"digits before letters do not count", "1.2.3.4a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := endsInANumber(tt.in); got != tt.want {
				t.Errorf("endsInANumber(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseIPv4(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"one number is the whole address", "2130706433", "127.0.0.1"},
		{"the last of two parts fills three bytes", "127.1", "127.0.0.1"},
		{"octal parts have a leading zero", "0177.0.0.01", "127.0.0.1"},
		{"hexadecimal parts start with 0x", "0x7F.0X0.0x.1", "127.0.0.1"},
		{"the largest address", "0xffffffff", "255.255.255.255"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ip, err := parseIPv4(tt.in)
			if err != nil || serializeIPv4(ip) != tt.want {
				t.Errorf("parseIPv4(%q) = %s, %v; want %s", tt.in, serializeIPv4(ip), err, tt.want)
			}
		})
	}
	for _, in := range []string{"4294967296", "1.16777216", "256.0.0.1", "1.2.3.4.5", "0x1g", "99999999999999999999999"} {
		t.Run(in+" is not an IPv4 address", func(t *testing.T) {
			if ip, err := parseIPv4(in); err == nil {
				t.Errorf("parseIPv4(%q) = %s, want failure", in, serializeIPv4(ip))
			}
		})
	}
}

// TestSerializeIPv6MatchesNetip checks the URL Standard's IPv6 serializer
// against net/netip's RFC 5952 text form, which it must equal except for
// IPv4-mapped addresses (netip writes those dotted).
func TestSerializeIPv6MatchesNetip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b [16]byte
		for i := range b {
			if r.IntN(3) > 0 { // many zero bytes, so many zero runs
				b[i] = byte(r.Uint32())
			}
		}
		a := netip.AddrFrom16(b)
		if a.Is4In6() {
			continue
		}
		if got, want := serializeIPv6(a), "["+a.String()+"]"; got != want {
			t.Fatalf("serializeIPv6(%v) = %s, want %s", b, got, want)
		}
	}
	tests := []struct{ name, in, want string }{
		// RFC 5952 §4.2.3: the first of two equally long zero runs is compressed.
		{"the first of two equal zero runs is compressed", "[1:0:0:2:0:0:3:4]", "[1::2:0:0:3:4]"},
		{"a single zero piece is not compressed", "[1:0:2:3:4:5:6:7]", "[1:0:2:3:4:5:6:7]"},
		{"the unspecified address is ::", "[0:0:0:0:0:0:0:0]", "[::]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := parseIPv6(tt.in)
			if err != nil || serializeIPv6(a) != tt.want {
				t.Errorf("IPv6 %s = %s, %v; want %s", tt.in, serializeIPv6(a), err, tt.want)
			}
		})
	}
}
