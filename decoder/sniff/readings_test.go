package sniff

import (
	"testing"

	"github.com/cgigate/cgigate/decoder/charset"
)

func TestReadingsAreOtherTexts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sample []byte
	}{
		{"EUC bytes read as three other CJK texts", []byte{0xB0, 0xF5, 0xBA, 0xFE}},
		{"an accented Latin word is not read again by each charset that agrees on it", []byte("caf\xe9 cr\xe8me")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			samples := [][]byte{tc.sample}
			first, ok := New().Sniff(samples, Evidence{})
			if !ok {
				t.Fatal("no guess")
			}
			seen := map[string]string{}
			text := func(name string) string {
				s, _ := charset.MustLookup(name).Decode(tc.sample)
				return s
			}
			seen[text(first.Charset)] = first.Charset
			rs := Readings(New(), samples, Evidence{}, first, 3)
			if len(rs) == 0 {
				t.Fatalf("no other reading of %q than %s", tc.sample, first.Charset)
			}
			for _, g := range rs {
				s := text(g.Charset)
				if prev, dup := seen[s]; dup {
					t.Errorf("%s reads %q as %s did", g.Charset, s, prev)
				}
				seen[s] = g.Charset
				if _, invalid := charset.MustLookup(g.Charset).Decode(tc.sample); len(invalid) > 0 {
					t.Errorf("%s does not read the bytes without error", g.Charset)
				}
			}
			t.Logf("%s, then %v", first.Charset, rs)
		})
	}
}
