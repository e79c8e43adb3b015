package sniff

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// sniffBoth is Sniff with pruning and without, every candidate and
// language scored in full.
func sniffBoth(samples [][]byte, ev Evidence) (pruned, full Guess, okP, okF bool) {
	pruned, okP = Detector{}.Sniff(samples, ev)
	pruning = false
	defer func() { pruning = true }()
	full, okF = Detector{}.Sniff(samples, ev)
	return
}

// Pruning is meant to change nothing: the same charset and the same
// confidence, to the last bit, on every input.
func TestPruningChangesNoGuess(t *testing.T) {
	rows := append(loadRows(t, corpusPath), loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl"))...)
	check := func(t *testing.T, what string, samples [][]byte, ev Evidence) {
		t.Helper()
		p, f, okP, okF := sniffBoth(samples, ev)
		if p != f || okP != okF {
			t.Fatalf("%s: pruned %+v %v, full %+v %v", what, p, okP, f, okF)
		}
	}
	t.Run("each corpus string alone, with and without its Accept-Language", func(t *testing.T) {
		for _, r := range rows {
			check(t, r.Text, [][]byte{r.raw}, Evidence{})
			check(t, r.Text, [][]byte{r.raw}, Evidence{AcceptLanguage: acceptLanguage[r.Lang]})
		}
	})
	t.Run("long forms: many fields of one charset's strings", func(t *testing.T) {
		byCharset := map[string][][]byte{}
		for _, r := range rows {
			byCharset[r.Charset] = append(byCharset[r.Charset], r.raw)
		}
		rng := rand.New(rand.NewPCG(3, 5))
		for cs, raws := range byCharset {
			for n := 0; n < 20; n++ {
				var samples [][]byte
				for k := 1 + rng.IntN(120); k > 0; k-- {
					samples = append(samples, raws[rng.IntN(len(raws))])
				}
				check(t, cs, samples, Evidence{})
			}
		}
	})
	t.Run("a UTF-8 form of 100 accented fields", func(t *testing.T) {
		var samples [][]byte
		for range 100 {
			samples = append(samples, []byte(strings.Repeat("café ", 4)[:20]))
		}
		check(t, "café", samples, Evidence{})
	})
}

// Within a candidate only languages that cannot beat its best one stop
// early: with no floor, every candidate's score is the one scored in full.
func TestPruningKeepsEveryCandidatesScore(t *testing.T) {
	rows := append(loadRows(t, corpusPath), loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl"))...)
	pri := priorsFor(Evidence{})
	var sc scratch
	for _, r := range rows {
		samples := [][]byte{r.raw, []byte(r.Text)}
		for _, c := range candidates.Get() {
			if c.name == "iso-2022-jp" {
				continue
			}
			got, cleanGot := c.evaluate(samples, pri, &sc, negInf)
			pruning = false
			want, cleanWant := c.evaluate(samples, pri, &sc, negInf)
			pruning = true
			if got != want || cleanGot != cleanWant {
				t.Fatalf("%s in %s: pruned %v (clean %v), full %v (clean %v)", r.Text, c.name, got, cleanGot, want, cleanWant)
			}
		}
		decoded := []string{r.Text}
		got := utf8Score(decoded, pri, &sc)
		pruning = false
		want := utf8Score(decoded, pri, &sc)
		pruning = true
		if got != want {
			t.Fatalf("%s in UTF-8: pruned %v, full %v", r.Text, got, want)
		}
	}
}

// The pruning must also be what makes that form cheap; see
// BenchmarkSniffLongForm for the time.
func TestPruningPrunes(t *testing.T) {
	var samples [][]byte
	for range 100 {
		samples = append(samples, []byte("café crème brûlée à la française"))
	}
	pri := priorsFor(Evidence{})
	var sc scratch
	decoded := make([]string, len(samples))
	for i, s := range samples {
		decoded[i] = string(s)
	}
	floor := utf8Score(decoded, pri, &sc) - pruneMargin // as Sniff sets it
	pruned := 0
	for _, c := range candidates.Get() {
		if c.name == "iso-2022-jp" {
			continue
		}
		if s, clean := c.evaluate(samples, pri, &sc, floor); clean && math.IsInf(s, -1) {
			pruned++
		}
	}
	if pruned == 0 {
		t.Errorf("no candidate was pruned below a floor of %.0f bits", floor)
	}
}

// BenchmarkSniffLongForm sniffs a form of many fields, pruned (the
// default) and scored in full by every candidate (impl=full):
//
//	go test -run '^$' -bench SniffLongForm -count 6 ./decoder/sniff | benchstat -col /impl -
func BenchmarkSniffLongForm(b *testing.B) {
	rows := loadRows(b, corpusPath)
	forms := map[string][][]byte{}
	for range 100 {
		forms["utf-8-accented"] = append(forms["utf-8-accented"], []byte("café crème brûlée"))
	}
	for _, r := range rows {
		if r.Charset == "shift_jis" || r.Charset == "windows-1251" {
			forms[r.Charset] = append(forms[r.Charset], r.raw)
		}
	}
	for _, name := range []string{"utf-8-accented", "shift_jis", "windows-1251"} {
		samples := forms[name]
		for _, impl := range []struct {
			name string
			on   bool
		}{{"pruned", true}, {"full", false}} {
			b.Run("form="+name+"/impl="+impl.name, func(b *testing.B) {
				pruning = impl.on
				defer func() { pruning = true }()
				for b.Loop() {
					Detector{}.Sniff(samples, Evidence{})
				}
			})
		}
	}
}

// windows-1258 text that needs no composing is scored from the byte table,
// the rest by decoding and composing it: both ways give the same score to
// the last bit.
func TestWindows1258TableScoresAsTheDecoder(t *testing.T) {
	rows := append(loadRows(t, corpusPath), loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl"))...)
	var c *candidate
	for _, x := range candidates.Get() {
		if x.name == "windows-1258" {
			c = x
		}
	}
	pri := priorsFor(Evidence{})
	var table, decoded scratch
	byTable := 0
	for _, r := range rows {
		for _, samples := range [][][]byte{{r.raw}, {r.raw, []byte(r.Text)}, {[]byte("\xe0 \xa9 1"), r.raw}} {
			table.resetTexts()
			got, cleanGot, ok := c.scoreSingle(samples, pri, &table, negInf)
			if !ok {
				continue
			}
			byTable++
			decoded.resetTexts()
			want, cleanWant := c.evaluateDecoded(samples, pri, &decoded, negInf)
			if got != want || cleanGot != cleanWant {
				t.Fatalf("% x: byte table %v (clean %v), decoded %v (clean %v)", samples, got, cleanGot, want, cleanWant)
			}
		}
	}
	if byTable < len(rows) {
		t.Errorf("the byte table scored %d inputs of %d", byTable, 3*len(rows))
	}
}

// windows-1258 text with tone marks is decoded and composed to be scored,
// unless its words without a mark already cost each of its languages more
// than the floor allows: then decoding would score it below the floor and
// never count it. Floors are set around each paragraph's score as decoded
// without one.
func TestStopsWithoutComposingOnlyWhatDecodingLeavesUncounted(t *testing.T) {
	legacy, _ := paragraphs(t)
	var c *candidate
	for _, x := range candidates.Get() {
		if x.name == "windows-1258" {
			c = x
		}
	}
	for _, tc := range []struct {
		name                   string
		above                  float64 // the floor above the score decoding gives
		minStopped, maxStopped int     // of the 15 paragraphs with marks
	}{
		{"a floor just below the score stops none", -0.5, 0, 0},
		{"a floor just above the score stops none wrongly", 0.5, 0, 15},
		{"a floor 300 bits above the score stops some", 300, 3, 15},
		{"a floor 1000 bits above the score stops most", 1000, 9, 15},
		{"a floor 3000 bits above the score stops all", 3000, 15, 15},
		{"no floor stops none", math.Inf(-1), 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sc scratch
			stopped, marked := 0, 0
			for _, p := range legacy {
				samples := [][]byte{p}
				if _, ok := c.appendKey(nil, samples); !ok || c.composed(samples) {
					continue // invalid, or scored by the byte table
				}
				marked++
				sc.resetTexts()
				sc.setPriors(nil)
				unpruned, _ := c.evaluateDecoded(samples, nil, &sc, negInf)
				floor := unpruned + tc.above
				if !c.stopsWithoutComposing(samples, &sc, floor) {
					continue
				}
				stopped++
				score, clean := c.evaluateDecoded(samples, nil, &sc, floor)
				if !clean || score >= floor {
					t.Fatalf("%q: stopped under floor %v, but decoding scores %v (clean %v)", p, floor, score, clean)
				}
			}
			if stopped < tc.minStopped || stopped > tc.maxStopped {
				t.Errorf("stopped %d of %d paragraphs with marks", stopped, marked)
			}
			t.Logf("stopped %d of %d paragraphs with marks", stopped, marked)
		})
	}
}
