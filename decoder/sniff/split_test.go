package sniff

import (
	"math"
	"path/filepath"
	"testing"
)

// A single-byte candidate splits its text straight from the bytes, its
// glyphs looked up as it goes: the words and the fixed cost, to the last
// bit, are what split makes of the glyph array the candidate decodes.
func TestByteSplitterIsTheGlyphSplitter(t *testing.T) {
	forEachSingleByte(t, func(t *testing.T, c *candidate, r corpusRow) {
		for _, bs := range [][]byte{r.raw, []byte(r.Text), []byte("«" + r.Text + "» 20° z³o")} {
			var gs []glyph
			for _, b := range bs {
				if b < 0x80 {
					gs = append(gs, asciiGlyphs[b])
				} else {
					gs = append(gs, c.sb.glyphs[b-0x80])
				}
			}
			wantFixed, wantWords := split(gs, nil)
			sp := splitter{bs: bs, high: &c.sb.glyphs}
			gotFixed := 0.0
			var gotWords []span
			for {
				w, ok := sp.next(&gotFixed)
				if !ok {
					break
				}
				gotWords = append(gotWords, w)
			}
			if math.Float64bits(gotFixed) != math.Float64bits(wantFixed) || len(gotWords) != len(wantWords) {
				t.Fatalf("%x: fixed %v in %d words from the bytes, %v in %d from the glyphs", bs, gotFixed, len(gotWords), wantFixed, len(wantWords))
			}
			for i := range gotWords {
				if gotWords[i] != wantWords[i] {
					t.Fatalf("%x: word %d is %v from the bytes, %v from the glyphs", bs, i, gotWords[i], wantWords[i])
				}
			}
		}
	})
}

// appendKey writes what the charset decodes the samples to, ASCII runs
// copied whole and two-byte characters written out, to the byte.
func TestAppendKeyIsTheDecoding(t *testing.T) {
	forEachSingleByte(t, func(t *testing.T, c *candidate, r corpusRow) {
		samples := [][]byte{r.raw, []byte("plain ASCII of more than eight bytes " + r.Text), {}}
		got, ok := c.appendKey(nil, samples)
		var want []byte
		valid := true
		for _, s := range samples {
			for _, b := range s {
				switch {
				case b < 0x80:
					want = append(want, b)
				case !c.sb.valid[b-0x80]:
					valid = false
				default:
					want = append(want, string(c.sb.runes[b-0x80])...)
				}
			}
			want = append(want, 0)
		}
		if ok != valid {
			t.Fatalf("%x: appendKey says valid %v, the table the opposite", r.raw, ok)
		}
		if ok && string(got) != string(want) {
			t.Fatalf("%x: key %q, want %q", r.raw, got, want)
		}
	})
}

// asciiPrefix finds the first byte 0x80 and up wherever it falls in or
// after the eight-byte words it reads.
func TestASCIIPrefix(t *testing.T) {
	for n := range 20 {
		for at := 0; at <= n; at++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = 'a'
			}
			if at < n {
				b[at] = 0x80
			}
			if got := asciiPrefix(b); got != at {
				t.Errorf("asciiPrefix of %d bytes with 0x80 at %d = %d", n, at, got)
			}
		}
	}
}

// forEachSingleByte calls f with every corpus and dev row in every
// single-byte candidate, a subtest per candidate.
func forEachSingleByte(t *testing.T, f func(t *testing.T, c *candidate, r corpusRow)) {
	rows := append(loadRows(t, corpusPath), loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl"))...)
	for _, c := range candidates.Get() {
		if c.sb == nil {
			continue
		}
		t.Run("in "+c.name, func(t *testing.T) {
			for _, r := range rows {
				f(t, c, r)
			}
		})
	}
}
