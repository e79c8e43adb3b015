package idn

import (
	"errors"
	"testing"
)

func TestParseHost(t *testing.T) {
	tests := []struct {
		name, raw      string
		opts           []Option
		kind           Kind
		ascii, unicode string
		steps          Steps
	}{
		{"a percent-encoded host is decoded", "www.%79%61%68%6f%6f.com", nil, Domain, "www.yahoo.com", "www.yahoo.com", PercentDecoded},
		{"an A-label is shown as its U-label", "xn--mnchen-3ya.de", nil, Domain, "xn--mnchen-3ya.de", "münchen.de", Punycode},
		{"a U-label goes on the wire as its A-label", "münchen.de", nil, Domain, "xn--mnchen-3ya.de", "münchen.de", Punycode},
		// Python: "日本語".encode("idna") == b"xn--wgv71a119e".
		{"Japanese goes on the wire as punycode", "日本語.jp", nil, Domain, "xn--wgv71a119e.jp", "日本語.jp", Punycode},
		{"percent-encoded UTF-8 in upper case is decoded, folded and encoded", "M%C3%9CNCHEN.DE", nil, Domain, "xn--mnchen-3ya.de", "münchen.de", PercentDecoded | Mapped | Punycode},
		{"upper case is folded", "EXAMPLE.com", nil, Domain, "example.com", "example.com", Mapped},
		{"an ideographic full stop separates labels", "example。com", nil, Domain, "example.com", "example.com", Mapped},
		{"a leading BOM is kept by UTF-8 decoding and then ignored by UTS 46", "%EF%BB%BFexample.com", nil, Domain, "example.com", "example.com", PercentDecoded | Mapped},
		{"ß is kept, not mapped to ss (non-transitional)", "faß.de", nil, Domain, "xn--fa-hia.de", "faß.de", Punycode},
		{"hyphens in the third and fourth place are allowed", "r3---sn-apo3qvuoxuxbt-j5pe.example", nil, Domain, "r3---sn-apo3qvuoxuxbt-j5pe.example", "r3---sn-apo3qvuoxuxbt-j5pe.example", 0},
		{"an ASCII host with an invalid A-label is kept as it is", "a.b.c.XN--pokxncvks", nil, Domain, "a.b.c.xn--pokxncvks", "a.b.c.xn--pokxncvks", Mapped},
		{"a dotted-decimal IPv4 address is an IPv4 host", "127.0.0.1", nil, IPv4, "127.0.0.1", "127.0.0.1", 0},
		{"hexadecimal and short IPv4 forms are normalized", "0x7f.1", nil, IPv4, "127.0.0.1", "127.0.0.1", Mapped},
		{"a percent-encoded IPv4 address is an IPv4 host", "%31%32%37.0.0.1", nil, IPv4, "127.0.0.1", "127.0.0.1", PercentDecoded},
		{"an IPv6 address is serialized compressed in lower case", "[2001:DB8:0:0:0:0:0:1]", nil, IPv6, "[2001:db8::1]", "[2001:db8::1]", Mapped},
		{"an embedded IPv4 address is written in hex", "[::ffff:1.2.3.4]", nil, IPv6, "[::ffff:102:304]", "[::ffff:102:304]", Mapped},
		{"a UTF-5 label is plain ASCII by default", "M---5E5M72COA9E.jp", nil, Domain, "m---5e5m72coa9e.jp", "m---5e5m72coa9e.jp", Mapped},
		{"a UTF-5 label is decoded when asked", "M---5E5M72COA9E.jp", []Option{WithLegacy()}, Domain, "xn--wgv71a119e.jp", "日本語.jp", Legacy | Punycode},
		// Python: "œuf".encode("idna") == b"xn--uf-dsa".
		{"a double-hyphened label is decoded when asked", "C--59--3uf.fr", []Option{WithLegacy()}, Domain, "xn--uf-dsa.fr", "œuf.fr", Legacy | Punycode},
		{"a percent-encoded legacy label is decoded when asked", "%43--59--3uf.fr", []Option{WithLegacy()}, Domain, "xn--uf-dsa.fr", "œuf.fr", PercentDecoded | Legacy | Punycode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := ParseHost(tt.raw, tt.opts...)
			if err != nil {
				t.Fatalf("ParseHost(%q) failed: %v", tt.raw, err)
			}
			want := Host{Raw: tt.raw, Kind: tt.kind, ASCII: tt.ascii, Unicode: tt.unicode, Steps: tt.steps}
			if h != want {
				t.Errorf("ParseHost(%q) = %#v\nwant %#v", tt.raw, h, want)
			}
		})
	}
}

func TestParseHostForbiddenCodePoints(t *testing.T) {
	tests := []struct {
		name, raw, host string
		char            rune
		offset          int
	}{
		{"a literal < is forbidden", "exa<mple.com", "exa<mple.com", '<', 3},
		{"a percent-encoded < is forbidden", "exa%3Cmple.com", "exa<mple.com", '<', 3},
		{"a space is forbidden", "a b", "a b", ' ', 1},
		{"a NUL byte is forbidden", "a%00b", "a\x00b", 0, 1},
		{"a C0 control is forbidden in a domain", "a\x01b", "a\x01b", 1, 1},
		{"DEL is forbidden in a domain", "a\x7fb", "a\x7fb", 0x7f, 1},
		{"a percent-encoded percent sign is forbidden", "a%25b", "a%b", '%', 1},
		{"a % that starts no escape is forbidden", "a%zzb", "a%zzb", '%', 1},
		{"a truncated escape is forbidden", "ab%4", "ab%4", '%', 2},
		{"a pipe is forbidden", "a|b", "a|b", '|', 1},
		{"a full-width percent sign maps to a forbidden %", "ex%EF%BC%85ample", "ex%ample", '%', 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseHost(tt.raw)
			var e *Error
			var fe *ForbiddenCodePointError
			if !errors.As(err, &e) || !errors.As(err, &fe) {
				t.Fatalf("ParseHost(%q) error = %v, want *Error wrapping *ForbiddenCodePointError", tt.raw, err)
			}
			if e.Op != "ParseHost" || e.Host != tt.raw {
				t.Errorf("Error names op %q host %q, want ParseHost %q", e.Op, e.Host, tt.raw)
			}
			if fe.Char != tt.char || fe.Host != tt.host || fe.Offset != tt.offset {
				t.Errorf("got %U in %q at %d, want %U in %q at %d", fe.Char, fe.Host, fe.Offset, tt.char, tt.host, tt.offset)
			}
		})
	}
}

func TestParseHostFailures(t *testing.T) {
	tests := []struct {
		name, raw string
		opts      []Option
		cause     error
	}{
		{"the empty host fails", "", nil, errEmptyDomain},
		{"a host of only ignored code points fails", "%C2%AD", nil, errEmptyDomain},
		{"an unclosed IPv6 address fails", "[::1", nil, errIPv6Unclosed},
		{"an IPv6 zone fails", "[fe80::1%25eth0]", nil, errIPv6Zone},
		{"a bracketed IPv4 address fails", "[1.2.3.4]", nil, errIPv6NotIPv6},
		{"an IPv4 part above 255 fails", "1.2.3.256", nil, errIPv4OutOfRange},
		{"five IPv4 parts fail", "1.2.3.4.5", nil, errIPv4TooManyParts},
		{"an invalid octal IPv4 part fails", "09.2.3.4", nil, errIPv4BadNumber},
		{"an empty xn-- label beside a U-label fails", "ü.xn--", nil, errACELabel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := ParseHost(tt.raw, tt.opts...)
			if !errors.Is(err, tt.cause) {
				t.Fatalf("ParseHost(%q) = %#v, %v; want %v", tt.raw, h, err, tt.cause)
			}
		})
	}
	t.Run("an invalid U-label fails with the idna error", func(t *testing.T) {
		// U+0661 ARABIC-INDIC DIGIT ONE after a Latin letter breaks the Bidi rule.
		if _, err := ParseHost("a\u0661.com"); err == nil {
			t.Fatal("ParseHost accepted a label breaking the Bidi rule")
		}
	})
	t.Run("a malformed legacy label fails when legacy decoding is asked for", func(t *testing.T) {
		_, err := ParseHost("ab--cd.com", WithLegacy())
		var le *LegacyError
		if !errors.As(err, &le) || le.Label != "ab--cd" {
			t.Fatalf("err = %v, want a *LegacyError for ab--cd", err)
		}
		if h, err := ParseHost("ab--cd.com"); err != nil || h.ASCII != "ab--cd.com" {
			t.Fatalf("without legacy decoding: %v, %v", h, err)
		}
	})
}

func TestStepsString(t *testing.T) {
	tests := []struct {
		name string
		s    Steps
		want string
	}{
		{"no steps read as none", 0, "none"},
		{"one step reads as its name", Punycode, "punycode"},
		{"several steps read in order", PercentDecoded | Legacy | Punycode, "percent-decoded+legacy+punycode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.String(); got != tt.want {
				t.Errorf("Steps(%d).String() = %q, want %q", tt.s, got, tt.want)
			}
		})
	}
}

// FuzzParseHost checks that parsing never panics, that the ASCII form is
// ASCII, and that parsing is idempotent: the ASCII and Unicode forms of a
// parsed host parse back to the same ASCII form.
func FuzzParseHost(f *testing.F) {
	for _, s := range []string{"www.%79%61%68%6f%6f.com", "xn--mnchen-3ya.de", "münchen.de", "0x7f.1", "[::1]", "M---5E5M72COA9E.jp", "a.b.c.xn--pokxncvks", "faß.de"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, legacy bool) {
		o := Options{Legacy: legacy}
		h, err := o.ParseHost(raw)
		if err != nil {
			return
		}
		if !isASCII(h.ASCII) {
			t.Fatalf("ParseHost(%q).ASCII = %q is not ASCII", raw, h.ASCII)
		}
		for _, form := range []string{h.ASCII, h.Unicode} {
			again, err := Options{}.ParseHost(form)
			if err != nil || again.ASCII != h.ASCII {
				t.Fatalf("ParseHost(%q) = %q / %q, but ParseHost(%q) = %q, %v", raw, h.ASCII, h.Unicode, form, again.ASCII, err)
			}
		}
	})
}
