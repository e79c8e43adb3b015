package idn

import "testing"

func TestDefaultPort(t *testing.T) {
	// https://url.spec.whatwg.org/#default-port, and gopher from before
	// whatwg/url#453.
	tests := []struct {
		scheme  string
		port    uint16
		ok      bool
		special bool
	}{
		{"http", 80, true, true},
		{"https", 443, true, true},
		{"ws", 80, true, true},
		{"wss", 443, true, true},
		{"ftp", 21, true, true},
		{"HTTP", 80, true, true},
		{"file", 0, false, true},
		{"gopher", 70, true, false},
		{"mailto", 0, false, false},
		{"", 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.scheme+" has its default port and specialness", func(t *testing.T) {
			port, ok := DefaultPort(tt.scheme)
			if port != tt.port || ok != tt.ok {
				t.Errorf("DefaultPort(%q) = %d, %v; want %d, %v", tt.scheme, port, ok, tt.port, tt.ok)
			}
			if got := IsSpecialScheme(tt.scheme); got != tt.special {
				t.Errorf("IsSpecialScheme(%q) = %v, want %v", tt.scheme, got, tt.special)
			}
		})
	}
}
