package sniff

import (
	"math"
	"testing"
)

// The rough score that ranks single-byte candidates before a long text is
// scored prices each byte 0x80 and up of the text's first rankBytes alone:
// a non-letter its cost, a letter as starting a word in each language of
// the candidate (a foreign one at foreignLetter), the likeliest language
// winning; any byte the candidate leaves unassigned rules it out.
func TestUnigramScoreIsTheSumOverTheBytes(t *testing.T) {
	legacy, utf8 := paragraphs(t)
	var sc scratch
	checked := 0
	for _, p := range append(legacy, utf8...) {
		samples := [][]byte{p}
		if !sc.histogram(samples) {
			continue
		}
		for _, c := range candidates.Get() {
			if c.sb == nil {
				continue
			}
			want := negInf
			valid := true
			for _, b := range p[:rankBytes] {
				if b >= 0x80 && !c.sb.valid[b-0x80] {
					valid = false
				}
			}
			if valid {
				for k, li := range c.alpha {
					half := 0
					for _, b := range p[:rankBytes] {
						if b < 0x80 {
							continue
						}
						switch g, sym := c.sb.glyphs[b-0x80], c.sb.syms[k][b]; {
						case g.flags&fWord == 0:
							half += 2 * int(g.other)
						case sym == 0:
							half += 2 * foreignLetter
						default:
							half += digit(alphaLangs[li].bigrams[sym])
						}
					}
					want = max(want, -float64(half)/2)
				}
				want += c.base
			}
			if got := c.unigramScore(&sc, nil); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s, %q...: unigramScore %v, want %v", c.name, p[:20], got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no paragraph is long enough to be ranked")
	}
}
