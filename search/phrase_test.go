package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/bench"
)

// phraseDocs hold phrases in every shape the scan finds them, and their
// words in every near miss: inside longer terms, repeated, in a title,
// across title and text, CJK characters joined inside one term or split
// by white space, text whose folding moves spaces around.
var phraseDocs = map[string]string{
	"en/offset.txt":   "Offset printing\nWe do offset printing and letterpress. Preoffset printings, offset\u00a0printing",
	"en/apart.txt":    "Printing\nPrinting is done by offset machines: offset, then printing.",
	"en/inside.txt":   "offsets printing, offset reprinting, offsetprinting",
	"en/glued.txt":    "printingoffset printing offset",
	"en/repeat.txt":   "the the the end of the the story: a b a b a b c",
	"en/dog.txt":      "a big red dog and a big red cat",
	"en/title.html":   "<title>Zebra crossing</title><p>No crossing here, only a zebra.</p>",
	"en/across.html":  "<title>alpha beta</title><p>gamma delta</p>",
	"en/fields.html":  "<title>Head of gamma2</title><p>delta2 tail</p>",
	"en/fi.txt":       "ﬁle server and FILE SERVERS",
	"de/strasse.txt":  "Die Straße Bahn, STRASSE\u00a0BAHN und straßenbahn",
	"de/buecher.html": "<title>Für Bücher</title><p>Regale für Bücher und Bücher für Kinder</p>",
	"ja/join.txt":     "印刷サービスの会社\n活版印刷 サービス",
	"ja/spaced.txt":   "印刷\u3000サービス\u3000会社です",
	"ja/mixed.txt":    "印刷サービス 会社 と 印刷abc と 印刷 abc",
	"ja/reverse.txt":  "サービス印刷 ご案内",
	"ja/kana.txt":     "ｲﾝｻﾂ サービス",
}

// phraseQueries are the phrases, alone and with OR and minus around
// them, that the index must answer as the scan does.
var phraseQueries = [][]string{
	{`"offset printing"`},
	{`"offset printings"`},
	{`"set print"`},                // the first word at a term's end, the last at a term's start
	{`"offset reprinting"`},        // whole words
	{`"offsets printing"`},         // the first word ends its term
	{`"offset print"`, `"offset"`}, // a quoted single word is a word
	{`"printing offset"`},          // inside one term, no space: not a phrase
	{`"printingoffset printing"`},  // a whole term, then a prefix
	{`"the the"`},                  // a repeated word
	{`"the the end"`},              // a repeated word, then another
	{`"the the the the"`},          // more repeats than the text holds
	{`"a b a b c"`},                // a phrase whose words repeat
	{`"b a b a b a"`},              // ... more times than the text holds
	{`"big red dog"`},              // a middle word whole
	{`"ig red do"`},                // pieces at the ends only
	{`"big re dog"`},               // a piece in the middle: no
	{`"zebra crossing"`},           // in a title only
	{`"beta gamma"`},               // across title and text: no
	{`"tail gamma2"`},              // the text's second term, the title's third: no
	{`"file server"`},              // ﬁ folds to fi
	{`"FILE SERVERS"`},             // case folded
	{`"straße bahn"`},              // ß and a no-break space folded
	{`"strasse bahn"`},             // ...
	{`"für bücher"`},               // in the title and the text
	{`"bücher für kinder"`},        // three words
	{`"印刷 サービス"`},                  // joined inside one term, or split by a space
	{`"印刷 サービス 会社"`},               // a join, then a split; or two splits
	{`"印刷サービス 会社"`},                // a word of two, then a split
	{`"サービス 印刷"`},                  // not in sequence
	{`"印刷 abc"`},                   // CJK then Latin: only with a space
	{`"版印 刷サ"`},                    // joins inside a term, at neither end
	{`"インサツ サービス"`},                // half-width kana folded
	{`"の 会社"`},                     // the first word inside a term
	{`"offset printing"`, "OR", "zebra"},
	{"zebra", "OR", `"offset printing"`},
	{`"zebra crossing"`, "OR", `"印刷 サービス"`},
	{"printing", `-"offset printing"`},
	{"zebra", `-"zebra crossing"`},
	{`"offset printing"`, "-letterpress"},
	{`-"印刷 サービス"`, "印刷"},
	{`"für bücher"`, "OR", `"big red"`, "-kinder"},
}

func TestPhrasesAnswerAsTheScan(t *testing.T) {
	dir := makeIndex(t, phraseDocs)
	path := built(t, dir)
	found := 0
	for _, words := range phraseQueries {
		t.Run(fmt.Sprintf("%q gives the scan's answer", words), func(t *testing.T) {
			if answersAsTheScan(t, dir, path, queryOf(t, words...)) {
				found++
			}
		})
	}
	if found < len(phraseQueries)/2 {
		t.Errorf("only %d of %d queries found something: the test says little", found, len(phraseQueries))
	}
}

// randomPhrase cuts a phrase out of a folded text: two to four terms in
// a row, the first cut at any rune, the last at any rune, each CJK term
// split at a random rune into two words (written side by side); or, one
// time in four, the words of two places of the text, which rarely make a
// phrase.
func randomPhrase(rng *rand.Rand, text string) string {
	terms := strings.FieldsFunc(text, isTermSep)
	if len(terms) == 0 {
		return ""
	}
	k := 1 + rng.IntN(min(4, len(terms)))
	i := rng.IntN(len(terms) - k + 1)
	ws := append([]string(nil), terms[i:i+k]...)
	if rng.IntN(4) == 0 {
		ws[len(ws)-1] = terms[rng.IntN(len(terms))]
	}
	cut := func(s string) int { // a rune boundary inside s, or 0
		n := utf8.RuneCountInString(s)
		if n < 2 {
			return 0
		}
		return len(string([]rune(s)[:1+rng.IntN(n-1)]))
	}
	if c := cut(ws[0]); c > 0 && rng.IntN(2) == 0 {
		ws[0] = ws[0][c:]
	}
	if c := cut(ws[len(ws)-1]); c > 0 && rng.IntN(2) == 0 {
		ws[len(ws)-1] = ws[len(ws)-1][:c]
	}
	var out []string
	for _, w := range ws {
		r, _ := utf8.DecodeRuneInString(w)
		if c := cut(w); c > 0 && isCJK(r) && rng.IntN(2) == 0 {
			out = append(out, w[:c], w[c:])
			continue
		}
		out = append(out, w)
	}
	return `"` + strings.Join(out, " ") + `"`
}

func TestRandomPhrasesAnswerAsTheScan(t *testing.T) {
	dir := t.TempDir()
	if _, err := bench.GenerateSite(dir, 150, 3); err != nil {
		t.Fatal(err)
	}
	path := built(t, dir)
	var texts []string
	if _, err := testFolder.eachDoc(dir, func(rel, title, text string) error {
		texts = append(texts, fold(title).text, fold(text).text)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	found, n := 0, 0
	for range 300 {
		p := randomPhrase(rng, texts[rng.IntN(len(texts))])
		if strings.Count(p, `"`) != 2 || p == `""` || strings.Contains(p[1:len(p)-1], `"`) {
			continue
		}
		q := queryOf(t, p)
		if q.empty() {
			continue
		}
		n++
		if answersAsTheScan(t, dir, path, q) {
			found++
		}
		if t.Failed() {
			t.Fatalf("the phrase %s", p)
		}
	}
	if found < n/2 || found == n {
		t.Errorf("%d of %d phrases found something: the test says little", found, n)
	}
}

// TestAPhraseReadsOnlyTheDocumentsShown holds a phrase query to the
// records of the documents it shows, however many documents hold its
// words apart: the positions decide, not the texts.
func TestAPhraseReadsOnlyTheDocumentsShown(t *testing.T) {
	docs := map[string]string{}
	for i := range 300 {
		text := fmt.Sprintf("Doc %d\nprinting by offset, then more printing", i)
		if i%100 == 0 {
			text += "; offset printing here"
		}
		docs[fmt.Sprintf("d/%d.txt", i)] = text
	}
	dir := makeIndex(t, docs)
	path := built(t, dir)
	for _, tc := range []struct {
		name  string
		words []string
		shown int
	}{
		{"a phrase three documents hold", []string{`"offset printing"`}, 3},
		{"a phrase no document holds", []string{`"printing offset"`}, 0},
		{"the words apart, the phrase excluded", []string{"offset", "printing", `-"offset printing"`}, DefaultPageSize},
	} {
		t.Run(tc.name+" reads the records of the documents shown only", func(t *testing.T) {
			q := queryOf(t, tc.words...)
			c := indexCost(t, path, q)
			if c.records != tc.shown || c.postings > 4*300 || c.positions > 4*300 {
				t.Errorf("cost %+v; want %d records, at most 1,200 postings, 1,200 positions", c, tc.shown)
			}
			hits, _, _ := scanAll(dir, q)
			if min(len(hits), DefaultPageSize) != tc.shown {
				t.Errorf("the scan finds %d documents", len(hits))
			}
		})
	}
}

// TestBrokenPositionsFallBackToTheScan flips a bit in the positions a
// phrase reads: the query is answered by the scan, and the log says why.
func TestBrokenPositionsFallBackToTheScan(t *testing.T) {
	dir := makeIndex(t, phraseDocs)
	want := searchFolder(t, dir, `"offset printing"`)
	if len(want.Results) == 0 {
		t.Fatal("the scan found nothing")
	}
	path, good := buildMain(t, dir)
	ix := indexSections(t, path)
	var offset int
	ix.termsContaining("offset", func(term int, b []byte, _ int) error {
		if string(b) == "offset" {
			offset = term
		}
		return nil
	})
	ix.data = good
	e := good[ix.secs[secTerms].off+uint64(offset)*entrySize:]
	end := ix.secs[secPostings].off + binary.LittleEndian.Uint64(e) + uint64(binary.LittleEndian.Uint32(e[8:]))
	for _, tc := range []struct {
		name string
		at   uint64 // in the file
	}{
		{"the length of the positions", end},
		{"the checksum of the positions", end + 1},
		{"the positions", end + 5},
	} {
		t.Run("a flipped bit in "+tc.name+" is logged and the documents are scanned", func(t *testing.T) {
			b := bytes.Clone(good)
			b[tc.at] ^= 0x20
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			a := searchFolder(t, dir, `"offset printing"`)
			if a.err != nil || !reflect.DeepEqual(a.Results, want.Results) {
				t.Errorf("%v: %+v; want %+v", a.err, a.Results, want.Results)
			}
			if !strings.Contains(a.log, "corrupt index file") || !strings.Contains(a.log, "positions") {
				t.Errorf("stderr %q", a.log)
			}
			if a := searchFolder(t, dir, "offset"); a.log != "" {
				t.Errorf("a query without a phrase reads the positions: %q", a.log)
			}
		})
	}
}

// FuzzPhraseFromPositions holds the positions to the scan on any text
// and phrase: the terms the builder counts (docTerms) that hold a word of
// the phrase, put back at their positions (stretches), hold the phrase
// exactly when the folded text does (Query.phraseIn).
func FuzzPhraseFromPositions(f *testing.F) {
	for _, d := range phraseDocs {
		f.Add(d, "offset printing")
		f.Add(d, "印刷 サービス 会社")
	}
	f.Add("the the the end", "the the end")
	f.Add("offset and printing", "offset printing")
	f.Add("印刷 と サービス", "印刷 サービス")
	f.Add("a b a b a b c", "b a b c")
	f.Add("x印刷サービス y", "刷 サービ")
	f.Fuzz(func(t *testing.T, text, phrase string) {
		q, err := ParseQuery([]string{`"` + strings.ReplaceAll(phrase, `"`, "") + `"`}, 0)
		if err != nil || len(q.all) != 1 || !q.all[0][0].phrase {
			return
		}
		it := q.all[0][0]
		folded := fold(text).text
		c := docTerms{at: map[string]int{}}
		c.count(folded, "")
		var ts []termsAt
		for term, j := range c.at {
			if isBigramKey(term) {
				continue // a bigram's, counted with the terms
			}
			for _, w := range it.words {
				if strings.Contains(term, q.needles[w].word) {
					dt := c.terms[j]
					ts = append(ts, termsAt{term: []byte(term), at: dt.textPos, text: uint64(dt.text)})
					break
				}
			}
		}
		var s stretches
		if err := s.place(&index{}, ts, func() (int, error) { return len(folded), nil }); err != nil {
			t.Fatal(err)
		}
		got := false
		for _, r := range s.runs {
			got = got || q.phraseIn(r, it)
		}
		if want := q.phraseIn(folded, it); got != want {
			t.Errorf("text %q phrase %q: from the positions %v, the scan %v (stretches %q)", folded, phrase, got, want, s.runs)
		}
	})
}

// TestPositionsBeyondTheTextAreCorrupt crafts, checksums and all, the
// positions of a long term at more places than its document's text could
// hold: the stretches they put back would be the term's length times the
// positions, from a few bytes a position. The phrase query finds the
// index corrupt, and what it allocates follows the bytes of the file, not
// that product.
func TestPositionsBeyondTheTextAreCorrupt(t *testing.T) {
	long := strings.Repeat("印", 1000)
	dir := makeIndex(t, map[string]string{"a.txt": "printing " + long, "b.txt": "other words"})
	path, good := buildMain(t, dir)
	ix := indexSections(t, path)
	term := -1
	ix.termsContaining(long, func(i int, _ []byte, _ int) error { term = i; return nil })
	if term < 0 {
		t.Fatal("the long term is not in the index")
	}
	// a.txt, document 0, holds the long term at positions 1 to n of its
	// text, after "printing" at 0.
	const n = 20000
	list := binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(nil, 0), n), 0)
	pos := bytes.Repeat([]byte{1}, n)
	b := slices.Clone(good)
	le := binary.LittleEndian
	off := uint64(len(b)) - ix.secs[secPostings].off
	b = append(b, list...)
	b = binary.AppendUvarint(b, uint64(len(pos)))
	b = le.AppendUint32(b, termChecksum(long, pos))
	b = append(b, pos...)
	ix.secs[secPostings].len = uint64(len(b)) - ix.secs[secPostings].off
	terms := b[ix.secs[secTerms].off : ix.secs[secTerms].off+ix.secs[secTerms].len]
	e := terms[term*entrySize:]
	le.PutUint64(e, off)
	le.PutUint32(e[8:], uint32(len(list)))
	le.PutUint32(e[12:], termChecksum(long, list))
	ix.secs[secTerms].crc = checksum(terms)
	copy(b, encodeHeader(ix.docs, ix.nTerms, ix.secs))
	for _, tc := range []struct {
		name, err string
		recordLen uint32 // in a.txt's document table entry; 0: as built
	}{
		{"positions beyond the text are corrupt", "positions", 0},
		// The entry's length is checked with the record, which a phrase
		// does not read: it must lie in its section to bound anything.
		{"a record claimed beyond its section is corrupt", "document 0", math.MaxUint32},
	} {
		t.Run(tc.name+", the search allocating what the file holds", func(t *testing.T) {
			b := slices.Clone(b)
			if tc.recordLen != 0 {
				le.PutUint32(b[ix.secs[secDocTab].off+8:], tc.recordLen)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := searchIndex(filepath.Join(dir, IndexName), queryOf(t, `"printing 印"`), 0, DefaultPageSize)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, errCorruptIndex) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v; want corrupt %s", err, tc.err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256*uint64(len(b)) {
				t.Errorf("the search allocated %d bytes for a file of %d", alloc, len(b))
			}
		})
	}
}
