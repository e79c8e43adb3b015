package sniff

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// decodeClean decodes in one pass and tells errors by the U+FFFD they
// leave: it must agree with decoder/charset's exact decoding, the truth,
// on whether a sample is clean and on its text, for text of every corpus
// charset in every candidate, and for bytes of no charset at all.
func TestDecodeCleanAgreesWithCharset(t *testing.T) {
	rows := append(loadRows(t, corpusPath), loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl"))...)
	var inputs [][][]byte
	for _, r := range rows {
		inputs = append(inputs, [][]byte{r.raw}, [][]byte{r.raw, []byte(r.Text)})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if rng.IntN(4) == 0 {
				b[i] = byte(0x20 + rng.IntN(0x60))
			}
		}
		inputs = append(inputs, [][]byte{b})
	}
	inputs = append(inputs,
		[][]byte{[]byte(gbkReplacement)},
		[][]byte{[]byte("\xff" + gbkReplacement)},
		[][]byte{[]byte("\x1b$B"), []byte("abc")},
	)
	cands := candidates.Get()
	for _, name := range []string{"gb18030", "iso-8859-5"} {
		extra := restrict(lookUp([]string{name}))
		cands = append(cands, extra...)
	}
	var fast, exact scratch
	for _, c := range cands {
		if c.c == nil {
			continue // scored from its byte table, never decoded
		}
		t.Run(c.name, func(t *testing.T) {
			for _, samples := range inputs {
				clean := fast.decodeClean(c, samples)
				nbad := exact.decodeExact(c, samples)
				if clean != (nbad == 0) {
					t.Fatalf("% x: decodeClean says clean %v, charset counts %d errors", samples, clean, nbad)
				}
				if !clean {
					continue
				}
				for i := range samples {
					if fast.decoded[i] != exact.decoded[i] {
						t.Fatalf("% x: decodeClean reads %q, charset %q", samples, fast.decoded[i], exact.decoded[i])
					}
				}
			}
		})
	}
}
