package idn

import (
	"net/url"
	"testing"

	"golang.org/x/net/idna"
)

var benchHosts = []string{"www.example.com", "www.%79%61%68%6f%6f.com", "xn--mnchen-3ya.de", "münchen.de", "日本語.jp", "127.0.0.1"}

// BenchmarkParseHost compares ParseHost with a peer doing the same work with
// the standard pieces alone: net/url's unescaping and x/net/idna's Lookup
// profile, both ways. Compare ns/op of the two sub-benchmarks.
func BenchmarkParseHost(b *testing.B) {
	b.Run("idn", func(b *testing.B) {
		for b.Loop() {
			for _, h := range benchHosts {
				_, _ = ParseHost(h)
			}
		}
	})
	b.Run("peer=url+idna.Lookup", func(b *testing.B) {
		for b.Loop() {
			for _, h := range benchHosts {
				s, _ := url.PathUnescape(h)
				a, _ := idna.Lookup.ToASCII(s)
				_, _ = idna.Lookup.ToUnicode(a)
			}
		}
	})
}

var benchLabels = []string{"日本語", "feliĉulo", "example", "αβγδε"}

// BenchmarkLegacy compares the legacy label codecs with punycode (RFC 3492),
// the encoding that replaced them, via x/net/idna's raw Punycode profile.
func BenchmarkLegacy(b *testing.B) {
	enc := make([]string, len(benchLabels))
	puny := make([]string, len(benchLabels))
	for i, l := range benchLabels {
		enc[i] = EncodeLegacy(l)
		puny[i], _ = idna.Punycode.ToASCII(l)
	}
	b.Run("encode", func(b *testing.B) {
		for b.Loop() {
			for _, l := range benchLabels {
				_ = EncodeLegacy(l)
			}
		}
	})
	b.Run("encode-peer=punycode", func(b *testing.B) {
		for b.Loop() {
			for _, l := range benchLabels {
				_, _ = idna.Punycode.ToASCII(l)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			for _, l := range enc {
				_, _ = DecodeLegacy(l)
			}
		}
	})
	b.Run("decode-peer=punycode", func(b *testing.B) {
		for b.Loop() {
			for _, l := range puny {
				_, _ = idna.Punycode.ToUnicode(l)
			}
		}
	})
}
