package idn

import (
	"errors"
	"strings"
	"testing"
)

func TestToASCIIAndToUnicode(t *testing.T) {
	tests := []struct{ name, unicode, ascii string }{
		{"a German name round-trips", "münchen.de", "xn--mnchen-3ya.de"},
		// Python: "bücher".encode("idna") == b"xn--bcher-kva".
		{"a second German name round-trips", "bücher.example", "xn--bcher-kva.example"},
		{"a Japanese name round-trips", "日本語.jp", "xn--wgv71a119e.jp"},
		{"an ASCII name is itself", "example.com", "example.com"},
		{"a trailing dot is kept", "münchen.de.", "xn--mnchen-3ya.de."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := ToASCII(tt.unicode); err != nil || got != tt.ascii {
				t.Errorf("ToASCII(%q) = %q, %v; want %q", tt.unicode, got, err, tt.ascii)
			}
			if got, err := ToUnicode(tt.ascii); err != nil || got != tt.unicode {
				t.Errorf("ToUnicode(%q) = %q, %v; want %q", tt.ascii, got, err, tt.unicode)
			}
		})
	}
}

func TestToUnicodeKeepsInvalidLabels(t *testing.T) {
	// "xn--pokxncvks" decodes to compatibility characters that UTS 46 maps,
	// so it is no valid A-label: it must not be shown decoded.
	const in = "xn--pokxncvks.xn--mnchen-3ya.de"
	got, err := ToUnicode(in)
	if got != "xn--pokxncvks.münchen.de" {
		t.Errorf("ToUnicode(%q) = %q, want the invalid label kept and the valid one decoded", in, got)
	}
	var e *Error
	if !errors.As(err, &e) || e.Op != "ToUnicode" || e.Host != in {
		t.Errorf("ToUnicode(%q) error = %v, want an *Error naming ToUnicode and the input", in, err)
	}
}

// An A-label whose decoding begins with "xn--" again is no valid
// A-label: shown decoded, it would be a non-ASCII "xn--" label, which
// domain to ASCII refuses (a fuzz input of FuzzParseHost).
func TestToUnicodeKeepsALabelThatDecodesToAnotherXNLabel(t *testing.T) {
	for _, in := range []string{"xn--xn--00000-00c", "xn--xn--00000-00c.xn--mnchen-3ya.de"} {
		got, err := ToUnicode(in)
		if want := strings.Replace(in, "xn--mnchen-3ya", "münchen", 1); got != want || !errors.Is(err, errACELabel) {
			t.Errorf("ToUnicode(%q) = %q, %v; want %q and %v", in, got, err, want, errACELabel)
		}
		if _, err := ToASCII(got); err != nil {
			t.Errorf("ToASCII(ToUnicode(%q)) = %v: the display form must parse back", in, err)
		}
	}
}

func TestToASCIIErrors(t *testing.T) {
	tests := []struct{ name, in string }{
		{"a forbidden code point fails", "a<b.com"},
		{"the empty domain fails", ""},
		{"a label breaking the Bidi rule fails", "a\u0661.com"},
		{"a disallowed code point fails", "a\uFFFDb.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToASCII(tt.in)
			var e *Error
			if !errors.As(err, &e) || e.Op != "ToASCII" || e.Host != tt.in || got != "" {
				t.Errorf("ToASCII(%q) = %q, %v; want \"\" and an *Error naming ToASCII", tt.in, got, err)
			}
		})
	}
}
