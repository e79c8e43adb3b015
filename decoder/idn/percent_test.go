package idn

import "testing"

func TestDecodeHostText(t *testing.T) {
	// The U+FFFD counts are Python's bytes.decode("utf-8", "replace"), which
	// like the Encoding Standard replaces each maximal ill-formed subpart.
	tests := []struct {
		name, raw, want string
		decoded         bool
	}{
		{"a host without escapes is itself", "example.com", "example.com", false},
		{"escapes are decoded", "www.%79%61%68%6f%6f.com", "www.yahoo.com", true},
		{"escaped UTF-8 becomes its characters", "m%C3%BCnchen", "münchen", true},
		{"a BOM is kept", "%EF%BB%BFa", "\uFEFFa", true},
		{"a truncated four-byte sequence is one U+FFFD", "%F0%9F%98", "\uFFFD", true},
		{"an overlong NUL is two U+FFFD", "%C0%80", "\uFFFD\uFFFD", true},
		{"an encoded surrogate is three U+FFFD", "%ED%A0%80", "\uFFFD\uFFFD\uFFFD", true},
		{"a raw invalid byte is replaced too", "a\xffb", "a\uFFFDb", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, decoded, err := decodeHostText(tt.raw)
			if err != nil || got != tt.want || decoded != tt.decoded {
				t.Errorf("decodeHostText(%q) = %q, %v, %v; want %q, %v", tt.raw, got, decoded, err, tt.want, tt.decoded)
			}
		})
	}
}
