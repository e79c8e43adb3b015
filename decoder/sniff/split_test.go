package sniff

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
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

// The characters startersOnly lets by are each in NFC and combine with no
// character before them, so that any string of them is in NFC.
func TestStartersOnlyNeedNoComposing(t *testing.T) {
	for r := rune(0); r < 0x480; r++ {
		s := string(r)
		if r >= 0x300 && r < 0x400 {
			if startersOnly(s) {
				t.Errorf("startersOnly(%U) is true", r)
			}
			continue
		}
		if !startersOnly(s) {
			t.Errorf("startersOnly(%U) is false", r)
		}
		if p := norm.NFC.PropertiesString(s); !p.BoundaryBefore() || norm.NFC.QuickSpanString(s) != len(s) {
			t.Errorf("%U is let by, yet it is not a starter in NFC that combines with nothing before it", r)
		}
	}
	for _, s := range []string{"é", "Ё", "ё", "\u047F"} {
		if !startersOnly(s) || norm.NFC.QuickSpanString("e"+s+s) != len("e"+s+s) {
			t.Errorf("%q: startersOnly %v", s, startersOnly(s))
		}
	}
	for _, s := range []string{"e\u0301", "ά", "\u0483", "ա", "印"} {
		if startersOnly(s) {
			t.Errorf("startersOnly(%q) is true", s)
		}
	}
}

// composeSegments composes a text a piece at a time, from a cache of the
// pieces: the text must come out as Normalization Form C composes it whole.
func TestComposeSegmentsIsNFC(t *testing.T) {
	sb := singleTable("windows-1258")
	decode := func(bs ...byte) string {
		var out []rune
		for _, b := range bs {
			if b < 0x80 {
				out = append(out, rune(b))
			} else {
				out = append(out, sb.runes[b-0x80])
			}
		}
		return string(out)
	}
	marks := []byte{0xCC, 0xD2, 0xDE, 0xEC, 0xF2}
	rng := rand.New(rand.NewPCG(7, 9))
	// Starters, marks of every class, Greek, Cyrillic's combining signs,
	// Hangul jamo that compose with each other, and a starter that
	// composes with the one before it (U+0CD5).
	pool := []rune("aeiouyAEIOUYnNcCsSzZàâêôơưăđĐéÉΩαάЙиё҃각가ಕೋೊ印ｶﾞ  –€")
	for r := rune(0x300); r < 0x370; r++ {
		pool = append(pool, r)
	}
	for _, tc := range []struct {
		name  string
		texts func(yield func(string) bool)
	}{
		{"every two bytes as windows-1258 reads them", func(yield func(string) bool) {
			for a := range 256 {
				for b := range 256 {
					if !yield(decode(byte(a), byte(b))) {
						return
					}
				}
			}
		}},
		{"three bytes of windows-1258 with a tone mark among them", func(yield func(string) bool) {
			for range 100_000 {
				bs := []byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))}
				bs[rng.IntN(3)] = marks[rng.IntN(len(marks))]
				if !yield(decode(bs...)) {
					return
				}
			}
		}},
		{"runs of letters, marks and signs of other scripts", func(yield func(string) bool) {
			for range 100_000 {
				rs := make([]rune, 1+rng.IntN(8))
				for i := range rs {
					rs[i] = pool[rng.IntN(len(pool))]
				}
				if !yield(string(rs)) {
					return
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s textScorer
			for text := range tc.texts {
				want := norm.NFC.String(text)
				// Twice: the second time from the cache, if kept.
				for range 2 {
					if got := string(s.composeSegments(nil, text)); got != want {
						t.Fatalf("%+q composes to %+q, NFC is %+q", text, got, want)
					}
				}
			}
		})
	}
}

// classText looks only at the texts sc.readable lists: they must be every
// text a reading's can be (of one character a byte, or too long to count),
// in order, and the reading's text found among them the one a look at
// every text finds.
func TestReadableListsTheTextsAReadingCanBe(t *testing.T) {
	rows := loadRows(t, corpusPath)
	var sc scratch
	for _, r := range rows {
		long := bytes.Repeat(append(r.raw, ' '), maxKeyed/len(r.raw)+1)
		for form, samples := range [][][]byte{{r.raw}, {r.raw, []byte(r.Text)}, {long}} {
			sc.resetTexts()
			// The decoders' texts first, as Sniff evaluates them, then
			// every single-byte candidate's: each decoding once.
			var keys [][]byte
			for _, c := range candidates.Get() {
				if c.sb == nil && c.name != "iso-2022-jp" && sc.decodeClean(c, samples) {
					keys = append(keys, joinKey(nil, sc.decoded))
				}
			}
			for _, c := range candidates.Get() {
				if c.sb == nil {
					continue
				}
				if key, ok := c.appendKey(nil, samples); ok {
					keys = append(keys, key)
				}
			}
			for _, key := range keys {
				sc.textID(key, samples)
			}
			var want []int
			for i, tx := range sc.texts {
				if tx.runes < 0 || tx.runes == readingRunes(samples) {
					want = append(want, i)
				}
			}
			if !slices.Equal(sc.readable, want) {
				t.Fatalf("%q, form %d: readable %v, want %v", r.Text, form, sc.readable, want)
			}
			for _, c := range candidates.Get() {
				if c.sb == nil {
					continue
				}
				cl, clean := sc.classOf(c, samples)
				if !clean {
					continue
				}
				key, _ := c.appendKey(nil, samples)
				found := ^cl
				for i, tx := range sc.texts {
					if sameText(tx.key, key) {
						found = i
						break
					}
				}
				if got := sc.classText(cl, samples); got != found {
					t.Fatalf("%q, form %d, in %s: classText %d, a look at every text %d", r.Text, form, c.name, got, found)
				}
			}
		}
	}
}

// The scorer lists each letter 0x80 and up of the loaded words, so that
// hasLetterOf asks about each once per language, not once per occurrence:
// the list holds every such letter and nothing else.
func TestLoadListsTheWordsHighLetters(t *testing.T) {
	rows := append(loadRows(t, corpusPath), loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl"))...)
	var s textScorer
	for _, r := range rows {
		s.load([]string{r.Text, "Ünïcode «" + r.Text + "» ÜNÏCODE"})
		want := map[rune]bool{}
		for _, w := range s.words {
			for _, g := range s.gs[w.start:w.end] {
				if g.flags&fHigh != 0 {
					want[g.lower] = true
				}
			}
		}
		got := map[rune]bool{}
		for _, l := range s.highs {
			got[l] = true
		}
		if len(got) != len(want) || len(s.highs) > 2*len(want) {
			t.Fatalf("%s: listed %q, want each of %v", r.Text, s.highs, want)
		}
		for l := range want {
			if !got[l] {
				t.Fatalf("%s: %q not listed", r.Text, l)
			}
		}
	}
}

// A decoder that reads a long sample a chunk at a time writes what one
// pass writes, whatever sequence a chunk's end cuts, and finds an error
// wherever one pass finds it.
func TestDecodeCleanByChunks(t *testing.T) {
	legacy, utf8 := paragraphs(t)
	var sc scratch
	for _, c := range candidates.Get() {
		if c.c == nil {
			continue
		}
		t.Run("in "+c.name, func(t *testing.T) {
			for _, p := range append(legacy, utf8...) {
				for shift := range 4 {
					src := append(bytes.Repeat([]byte{'a'}, shift), bytes.Repeat(p, 3)...)
					want := appendDecoded(sc.decoder(c), nil, src)
					got, bad := appendDecodedUntilBad(sc.decoder(c), nil, src)
					if wantBad := bytes.Contains(want, []byte("\uFFFD")); bad != wantBad {
						t.Fatalf("%x shifted by %d: bad %v, one pass says %v", p[:16], shift, bad, wantBad)
					}
					if !bad && !bytes.Equal(got, want) {
						t.Fatalf("%x shifted by %d: chunks wrote %q, one pass %q", p[:16], shift, got, want)
					}
				}
			}
		})
	}
}

// Single-byte candidates read the samples' bytes 0x80 and up alike exactly
// when they decode the samples to the same text: the reading keys what
// the languages make of the text, and stands for it until Sniff counts
// the candidate.
func TestReadingsAreTexts(t *testing.T) {
	rows := append(loadRows(t, corpusPath), loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl"))...)
	var sc scratch
	for _, r := range rows {
		for _, samples := range [][][]byte{{r.raw}, {r.raw, []byte(r.Text)}, {[]byte("\xe0 \xa9 1"), r.raw}} {
			sc.resetTexts()
			readingOf := map[string]int{} // by decoded text
			for _, c := range candidates.Get() {
				if c.sb == nil {
					continue
				}
				cl, clean := sc.classOf(c, samples)
				key, ok := c.appendKey(nil, samples)
				if clean != ok {
					t.Fatalf("% x in %s: reading says clean %v, appendKey %v", samples, c.name, clean, ok)
				}
				if !ok {
					continue
				}
				if want, seen := readingOf[string(key)]; !seen {
					readingOf[string(key)] = cl
				} else if cl != want {
					t.Fatalf("% x in %s: reading %d, but %d decodes to the same text", samples, c.name, cl, want)
				}
				if got, want := sc.classText(cl, samples), sc.textID(key, samples); got != want {
					t.Fatalf("% x in %s: reading's text %d, the key's %d", samples, c.name, got, want)
				}
			}
			if len(readingOf) != len(sc.readings) {
				t.Fatalf("% x: %d readings for %d texts", samples, len(sc.readings), len(readingOf))
			}
		}
	}
}

// The case model prices each cased letter by what came before it in the
// word: a capital opening a word is common, one after a small letter rare,
// and a word of capitals alone is an acronym; letters without case (and
// non-letters) cost nothing.
func TestCaseCostFollowsTheCaseModel(t *testing.T) {
	for _, tc := range []struct {
		name string
		word string
		want float64
	}{
		{"a small word pays for its first letter", "kraków", 0.4 + 5*0.03},
		{"a capitalised word pays for its capital", "Kraków", 2 + 0.2 + 4*0.03},
		{"an acronym pays little for each capital after the second", "NATO", 2 + 2.5 + 0.15 + 0.15},
		{"a capital after a small letter is dear", "iPhone", 0.4 + 9 + 4*0.03},
		{"a small letter after two capitals is dear", "ABc", 2 + 2.5 + 5},
		{"a capital after small letters stays dear after capitals", "aBCd", 0.4 + 9 + 9 + 0.03},
		{"letters without case cost nothing", "日本", 0},
		{"a word of 300 capitals is an acronym throughout", strings.Repeat("A", 300), 2 + 2.5 + 298*0.15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var gs []glyph
			for _, r := range tc.word {
				gs = append(gs, glyphOf(r))
			}
			sp := splitter{gs: gs}
			if got := sp.caseCost(0, len(gs)); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("caseCost(%q) = %v, want %v", tc.word, got, tc.want)
			}
		})
	}
}

// readsAs is the equality of a reading's key with another: compared with
// the decodings of the samples by every candidate, UTF-8's, and those keys
// cut short or run on, it answers what building the reading's key and
// comparing would.
func TestReadsAsIsTheKeysEquality(t *testing.T) {
	rows := append(loadRows(t, corpusPath), loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl"))...)
	var sc scratch
	for _, r := range rows {
		for _, samples := range [][][]byte{{r.raw}, {r.raw, []byte(r.Text)}, {[]byte("\x80\xa4"), r.raw}} {
			keys := [][]byte{joinKey(nil, []string{r.Text}), joinKey(nil, []string{string(r.raw)})}
			for _, c := range candidates.Get() {
				if c.sb != nil {
					if key, ok := c.appendKey(nil, samples); ok {
						keys = append(keys, key)
					}
				} else if c.c != nil && sc.decodeExact(c, samples) == 0 {
					keys = append(keys, joinKey(nil, sc.decoded))
				}
			}
			for _, k := range keys[:len(keys):len(keys)] {
				if len(k) > 0 {
					keys = append(keys, k[:len(k)-1], append(k[:len(k):len(k)], 'x'))
				}
			}
			for _, c := range candidates.Get() {
				if c.sb == nil {
					continue
				}
				want, ok := c.appendKey(nil, samples)
				if !ok {
					continue
				}
				for _, k := range keys {
					if got := c.readsAs(samples, k); got != bytes.Equal(want, k) {
						t.Fatalf("% x in %s against %q: readsAs %v, the keys' equality %v", samples, c.name, k, got, !got)
					}
				}
			}
		}
	}
}

// A reading's text needs no key unless a decoder wrote a text of as many
// characters: a short legacy value keys only what the multibyte
// candidates made of it, and its group still
// joins a decoder's text that is the same (the euro sign alone reads so
// in GBK and in windows-1252).
func TestReadingsBuildNoKey(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value string
		// joins says windows-1252's text is a decoder's.
		joins bool
	}{
		{"a German word in windows-1252", "M\xfcller", false},
		{"a Russian word in windows-1251", "\xf8\xe2\xe5\xff", false},
		{"a Polish word in windows-1250", "\xbfur", false},
		{"a euro sign", "\x80", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			samples := [][]byte{[]byte(tc.value)}
			var sc scratch
			sc.resetTexts()
			decoded := map[string]bool{} // the decoders' keys
			for _, c := range candidates.Get() {
				if c.sb == nil && sc.decodeExact(c, samples) == 0 {
					decoded[string(joinKey(nil, sc.decoded))] = true
					sc.textID(joinKey(nil, sc.decoded), samples)
				}
			}
			for _, c := range candidates.Get() {
				if c.sb == nil {
					continue
				}
				if cl, ok := sc.classOf(c, samples); ok {
					id := sc.classText(cl, samples)
					if c.name == "windows-1252" && (id >= 0) != tc.joins {
						t.Errorf("windows-1252's text is a decoder's: %v, want %v", id >= 0, tc.joins)
					}
					if id < 0 {
						continue // the reading's own text
					}
					key, _ := c.appendKey(nil, samples)
					if tx := sc.texts[id]; string(tx.key) != string(key) {
						t.Errorf("%s's text is a decoder's, %q, not %q", c.name, tx.key, key)
					}
				}
			}
			keyed := 0
			for _, tx := range sc.texts {
				keyed += len(tx.key)
			}
			want := 0
			for k := range decoded {
				want += len(k)
			}
			if keyed != want || len(sc.textKeys) != want {
				t.Errorf("%d bytes of keys, %d in textKeys: want the decoders' %d alone", keyed, len(sc.textKeys), want)
			}
		})
	}
}

// The splitter prices a word's case model as it reads the word: what it
// adds for a word holding a non-ASCII letter is caseCost of that word, to
// the last bit, whatever its mix of capitals, small and uncased letters.
func TestSplitterPricesCaseAsCaseCost(t *testing.T) {
	letters := []rune{'a', 'B', 'é', 'É', 'ß', '日', 'ǅ'}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 20000 {
		gs := []glyph{glyphOf('é')}
		for k := rng.IntN(9); k > 0; k-- {
			gs = append(gs, glyphOf(letters[rng.IntN(len(letters))]))
		}
		rng.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
		fixed, words := split(gs, nil)
		sp := splitter{gs: gs}
		if want := sp.caseCost(0, len(gs)); len(words) != 1 || math.Float64bits(fixed) != math.Float64bits(want) {
			t.Fatalf("%v: split into %d words, fixed %v, want one and caseCost %v", gs, len(words), fixed, want)
		}
	}
}

// A letter without case takes a step of the case model too, so that the
// splitter needs no branch on it: the step adds nothing and keeps the
// state, and a word's cost is, to the last bit, the sum over its cased
// letters alone.
func TestUncasedLettersTakeAStepThatChangesNothing(t *testing.T) {
	for state := range caseSteps {
		for _, col := range []uint8{caseColumn(glyphOf('日').flags), caseColumn(glyphOf('1').flags)} {
			if st := caseSteps[state][col]; math.Float64bits(st.cost) != 0 || int(st.next) != state {
				t.Errorf("state %d, column %d: step %+v, want cost +0 and the same state", state, col, st)
			}
		}
	}
	letters := []rune{'a', 'B', 'é', 'É', 'ß', '日', 'ǅ', 'ا'}
	rng := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		var gs []glyph
		for k := 1 + rng.IntN(12); k > 0; k-- {
			gs = append(gs, glyphOf(letters[rng.IntN(len(letters))]))
		}
		want, state := 0.0, uint8(caseFirst)
		for _, g := range gs {
			if g.flags&fCased == 0 {
				continue
			}
			upper := uint8(2)
			if g.flags&fUpper != 0 {
				upper = 3
			}
			st := caseSteps[state][upper]
			want += st.cost
			state = st.next
		}
		sp := splitter{gs: gs}
		if got := sp.caseCost(0, len(gs)); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%v: caseCost %v, want %v over the cased letters alone", gs, got, want)
		}
	}
}

// A lane prices a word of its candidate's bytes as its language prices
// the word's symbols, foreign letters (symbol 0) included, which the lane
// picks without a branch.
func TestLaneWordHalvesIsTheLanguages(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, c := range candidates.Get() {
		for k := range c.lanes {
			ln := &c.lanes[k]
			l := langOf(ln.li)
			for range 2000 {
				word := make([]byte, 1+rng.IntN(10))
				for i := range word {
					if rng.IntN(2) == 0 {
						word[i] = byte('a' + rng.IntN(26))
					} else {
						word[i] = byte(0x80 + rng.IntN(0x80))
					}
				}
				syms := make([]uint8, len(word))
				for i, b := range word {
					syms[i] = ln.syms[b]
				}
				if got, want := ln.wordHalves(word), l.wordHalves(syms); got != want {
					t.Fatalf("%s in %s, % x: %d half-bits, the language says %d", l.name, c.name, word, got, want)
				}
			}
		}
	}
}
