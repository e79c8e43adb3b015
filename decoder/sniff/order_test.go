package sniff

import (
	"math"
	"slices"
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

// The package's candidates start from one order, made once and shared by
// every call: decoders, single-byte candidates, windows-1258. A long text
// ranks its single-byte candidates in a copy, so that the next call still
// starts from the candidates' order; other candidates (a hint's) make their own.
func TestEvaluationOrderStartsFromTheSharedOrder(t *testing.T) {
	legacy, _ := paragraphs(t)
	all := candidates.Get()
	want := appendBaseOrder(nil, all)
	var sc scratch
	for _, tc := range []struct {
		name    string
		samples [][]byte
		ranked  bool
	}{
		{"a short value takes the shared order itself", [][]byte{[]byte("M\xfcller")}, false},
		{"a paragraph ranks a copy", [][]byte{legacy[6]}, true},
		{"a short value after it takes the shared order again", [][]byte{[]byte("\xf8\xe2\xe5\xff")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sc.evaluationOrder(all, tc.samples, nil, false)
			if shared := &got[0] == &defaultOrder.Get()[0]; shared == tc.ranked {
				t.Errorf("shared order %v, want %v", shared, !tc.ranked)
			}
			if !tc.ranked && !slices.Equal(got, want) {
				t.Errorf("order %v, want %v", got, want)
			}
			if !slices.Equal(defaultOrder.Get(), want) {
				t.Errorf("the shared order became %v", defaultOrder.Get())
			}
		})
	}
	t.Run("other candidates make their own order", func(t *testing.T) {
		var cands []*candidate
		for _, name := range []string{"windows-1258", "windows-1252", "gbk"} {
			cands = append(cands, all[slices.IndexFunc(all, func(c *candidate) bool { return c.name == name })])
		}
		got := sc.evaluationOrder(cands, [][]byte{[]byte("M\xfcller")}, nil, false)
		if !slices.Equal(got, []int{2, 1, 0}) {
			t.Errorf("order %v, want gbk, windows-1252, windows-1258", got)
		}
	})
}
