package sniff

import (
	"bytes"
	"testing"

	"github.com/cgigate/cgigate/decoder/charset"
)

func FuzzSniff(f *testing.F) {
	for _, s := range []string{"\x93\x8C\x8B\x9E", "\xBC\xAD\xBF\xEF", "\xCC\xEE\xF1\xEA\xE2\xE0", "f\xFCr", "\x1b$BElEl\x1b(B", "\xff\xfe", "abc", "\xe6\x9d\xb1"} {
		f.Add([]byte(s), uint8(1), "")
	}
	f.Add([]byte("\xEC\xE7\xED"), uint8(0), "he")
	f.Fuzz(func(t *testing.T, data []byte, cut uint8, lang string) {
		at := int(cut) % (len(data) + 1)
		samples := [][]byte{data[:at], data[at:]}
		ev := Evidence{AcceptLanguage: lang}
		g, ok := Detector{}.Sniff(samples, ev)
		g2, ok2 := Detector{}.Sniff([][]byte{bytes.Clone(data[:at]), bytes.Clone(data[at:])}, ev)
		if g != g2 || ok != ok2 {
			t.Fatalf("not deterministic: %+v %v then %+v %v", g, ok, g2, ok2)
		}
		if !(g.Confidence >= 0 && g.Confidence <= 1) { // NaN too
			t.Fatalf("confidence %v", g.Confidence)
		}
		decodesAll := func(name string) bool {
			c, err := charset.Lookup(name)
			if err != nil {
				t.Fatalf("guess %q is no charset: %v", name, err)
			}
			for _, s := range samples {
				if !c.Valid(s) {
					return false
				}
			}
			return true
		}
		if ok {
			if !decodesAll(g.Charset) {
				t.Fatalf("guess %s does not decode %x", g.Charset, data)
			}
			return
		}
		if !bytes.ContainsFunc(data, func(r rune) bool { return r >= 0x80 || r == 0x1B || r == 0xFFFD }) {
			return // ASCII: nothing to tell
		}
		for _, e := range append(candidateList[:len(candidateList):len(candidateList)], struct {
			name string
			base float64
			cjk  cjkLang
		}{name: "utf-8"}) {
			if decodesAll(e.name) {
				t.Fatalf("no guess for %x although %s decodes it", data, e.name)
			}
		}
	})
}
