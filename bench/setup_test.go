package bench

import "testing"

func TestParseSetupReadsWhatStringWrites(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"an MPM alone is its own module", "event", "event", true},
		{"prefork alone is mod_cgi", "prefork", "prefork", true},
		{"prefork with mod_cgid names the module", "prefork+cgid", "prefork+cgid", true},
		{"a module named that is the MPM's own is dropped from the name", "event+cgid", "event", true},
		{"mod_cgi under event is refused", "event+cgi", "", false},
		{"an unknown MPM is refused", "worker", "", false},
		{"an unknown module is refused", "prefork+fcgid", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSetup(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("ParseSetup(%q) error %v, want ok=%v", tt.in, err, tt.ok)
			}
			if tt.ok && s.String() != tt.want {
				t.Errorf("ParseSetup(%q).String() = %q, want %q", tt.in, s.String(), tt.want)
			}
		})
	}
}
