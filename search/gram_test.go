package search

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/bench"
)

func TestGramIndexAnswersAsTheScan(t *testing.T) {
	dir := t.TempDir()
	if _, err := bench.GenerateSite(dir, 300, 5); err != nil {
		t.Fatal(err)
	}
	st, err := (&Folder{Dir: dir}).Build()
	if err != nil {
		t.Fatal(err)
	}
	var queries [][]string
	for _, q := range bench.SiteQueries {
		queries = append(queries, strings.Fields(q.Text))
	}
	for _, w := range []string{
		"印", "刷", "印刷所", "刷所", "エンジン", "検索エ", "東京都", "会社案内", "ですます", // inside Japanese runs
		"haltestelle", "bahnhalt", "straßenbahn", "STRASSENBAHN", "regal", "ordnung", "größen", // inside German compounds
		"rint", "inting", "ffse", "ss", "ß", "e", "ö", // inside longer terms, one code point
		"印刷印刷", "tsetsepsett", "zz", "ﾞ", // grams all there, or none, but not the word
	} {
		queries = append(queries, []string{w})
	}
	found := 0
	for _, q := range queries {
		t.Run(fmt.Sprintf("%q gives the scan's answer", q), func(t *testing.T) {
			if answersAsTheScan(t, dir, st.Path, queryOf(t, q...)) {
				found++
			}
		})
	}
	if found < len(queries)*2/3 {
		t.Errorf("only %d of %d queries found something: the test says little", found, len(queries))
	}
}

// sentences are n unsegmented Japanese sentences, each of pieces words
// strung together and numbered: each a term of its own.
func sentences(n, pieces int, seed uint64) []string {
	words := strings.Fields("会社 案内 お問い合わせ ください です ます の を に は が と 日本語 文書 情報 技術 開発 品質 用紙 注文 納期 価格 株式会社 大阪 新しい")
	rng := rand.New(rand.NewPCG(uint64(n), seed))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range pieces {
			b.WriteString(words[rng.IntN(len(words))])
		}
		fmt.Fprintf(&b, "第%d号", i)
		out[i] = b.String()
	}
	return out
}

// japaneseSite is n documents, each an unsegmented Japanese sentence of
// its own (one term of its own: the dictionary grows with n), "needle" in
// five of them, 活版印刷 inside the sentence of the eighth.
func japaneseSite(t *testing.T, n int) string {
	docs := map[string]string{}
	for i, text := range sentences(n, 12, 1) {
		if i == 7 {
			text = "会社案内活版印刷" + text
		}
		if i%(n/5) == 0 {
			text += " needle"
		}
		docs[fmt.Sprintf("d%d/%d.txt", i/1000, i)] = text
	}
	return makeIndex(t, docs)
}

// TestQueryCostFollowsTheMatches holds a query to the bytes of the index
// it touches over 1,000 documents and over 20,000 whose dictionary grows
// with the text (a Japanese sentence is one term): the gram lists of its
// word, the terms that hold it, their posting lists and the records
// shown, never the dictionary. A word in no document touches a few
// hundred bytes.
func TestQueryCostFollowsTheMatches(t *testing.T) {
	type costs struct{ needle, missing, japanese searchCost }
	cost := func(n int) costs {
		st, err := (&Folder{Dir: japaneseSite(t, n)}).Build()
		if err != nil {
			t.Fatal(err)
		}
		return costs{
			indexCost(t, st.Path, queryOf(t, "needle")),
			indexCost(t, st.Path, queryOf(t, bench.MissingWord)),
			indexCost(t, st.Path, queryOf(t, "版印")),
		}
	}
	small, large := cost(1000), cost(20000)
	t.Logf("over 20,000 documents %+v; over 1,000 %+v", large, small)
	for _, tc := range []struct {
		name         string
		small, large searchCost
		records      int
	}{
		{"a word in five documents", small.needle, large.needle, 5},
		{"a word in no document", small.missing, large.missing, 0},
		{"a word inside one sentence", small.japanese, large.japanese, 1},
	} {
		t.Run(tc.name+" touches as many bytes over 20,000 documents as over 1,000", func(t *testing.T) {
			if tc.large.bytes > tc.small.bytes*3/2 || tc.large.records != tc.records || tc.small.records != tc.records {
				t.Errorf("over 20,000 documents %+v; over 1,000 %+v", tc.large, tc.small)
			}
		})
	}
	if large.missing.bytes > 1024 {
		t.Errorf("a word in no document touches %d bytes", large.missing.bytes)
	}
}

// gramEntry is a key of the grams section and its list.
type gramEntry struct {
	key  uint64
	last int // the last term id appended
	list []byte
}

// gramIndexInMemory builds the grams and gram lists sections from the
// whole dictionary (each term followed by '\n', in id order) in a map of
// every gram: how the builder made them before it made them in runs, kept
// as the reference the runs must give byte for byte.
func gramIndexInMemory(dict []byte) (grams, lists []byte) {
	byKey := map[uint64]*gramEntry{}
	add := func(key uint64, id int) {
		e := byKey[key]
		if e == nil {
			e = &gramEntry{key: key}
			byKey[key] = e
		} else if e.last == id && len(e.list) > 0 {
			return // already listed for this term
		}
		e.list = binary.AppendUvarint(e.list, uint64(id-e.last))
		e.last = id
	}
	id := 0
	for len(dict) > 0 {
		prev := rune(-1)
		for len(dict) > 0 && dict[0] != '\n' {
			r, n := utf8.DecodeRune(dict)
			dict = dict[n:]
			add(gramKey(r, -1), id)
			if prev >= 0 {
				add(gramKey(prev, r), id)
			}
			prev = r
		}
		dict = dict[1:]
		id++
	}
	keys := make([]*gramEntry, 0, len(byKey))
	for _, e := range byKey {
		keys = append(keys, e)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].key < keys[j].key })
	le := binary.LittleEndian
	grams = make([]byte, 0, len(keys)*gramSize)
	for _, e := range keys {
		grams = le.AppendUint64(grams, e.key)
		grams = le.AppendUint64(grams, uint64(len(lists)))
		grams = le.AppendUint32(grams, uint32(len(e.list)))
		grams = le.AppendUint32(grams, gramChecksum(e.key, e.list))
		lists = append(lists, e.list...)
	}
	return grams, lists
}

// TestTermSectionsAreTheInMemoryOnes builds an index of Japanese,
// German and English documents with runs of a few (gram, term) pairs,
// merged a few at a time, and holds the sections that follow the terms to
// what the builder made in memory from the whole dictionary: the grams and
// their lists (gramIndexInMemory), the dictionary index (each term's
// offset), and every table to its CRC in the header.
func TestTermSectionsAreTheInMemoryOnes(t *testing.T) {
	dir := t.TempDir()
	if _, err := bench.GenerateSite(dir, 200, 3); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                string
		pairs, terms, fanIn int
	}{
		{"one run", 1 << 30, 1 << runIDBits, 64},
		{"runs of 1,000 pairs, merged at the end", 1000, 1 << runIDBits, 1000},
		{"runs of 37 pairs, merged 3 at a time as they come", 37, 1 << runIDBits, 3},
		{"runs of one term, merged 2 at a time as they come", 1, 1 << runIDBits, 2},
		{"runs of 5 terms, however many pairs", 1 << 30, 5, 64},
	} {
		t.Run(tc.name+" give the in-memory sections", func(t *testing.T) {
			defer func(p, n, f, b int) {
				gramRunPairs, runTerms, gramFanIn, gramReadBuf = p, n, f, b
			}(gramRunPairs, runTerms, gramFanIn, gramReadBuf)
			gramRunPairs, runTerms, gramFanIn, gramReadBuf = tc.pairs, tc.terms, tc.fanIn, 16
			st, err := (&Folder{Dir: dir}).Rebuild()
			if err != nil {
				t.Fatal(err)
			}
			ix, err := openIndex(st.Segment)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.close()
			var secs [nSections][]byte
			for i := range secs {
				if secs[i], err = ix.section(i); err != nil {
					t.Fatal(err)
				}
				if i != secDocs && i != secPostings && checksum(secs[i]) != ix.secs[i].crc { // each record, each list checked by its own
					t.Errorf("section %d: CRC %08x in the header, %08x of its bytes", i, ix.secs[i].crc, checksum(secs[i]))
				}
			}
			dict := secs[secDict]
			if n := bytes.Count(dict, []byte("\n")); n != st.Terms || n < 1000 {
				t.Fatalf("%d terms in the dictionary, %d built", n, st.Terms)
			}
			grams, lists := gramIndexInMemory(dict)
			if !bytes.Equal(secs[secGrams], grams) || !bytes.Equal(secs[secGramLists], lists) {
				t.Errorf("grams %d bytes, gram lists %d; in memory %d and %d", len(secs[secGrams]), len(secs[secGramLists]), len(grams), len(lists))
			}
			var idx []byte
			for off := 0; off < len(dict); off += bytes.IndexByte(dict[off:], '\n') + 1 {
				idx = binary.LittleEndian.AppendUint64(idx, uint64(off))
			}
			if !bytes.Equal(secs[secDictIdx], idx) {
				t.Errorf("the dictionary index is not the terms' offsets")
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(dir, IndexName+"-*")); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
}

func TestPackedPairsSortAsKeyThenID(t *testing.T) {
	keys := []uint64{gramKey(0, -1), gramKey(0, 0), gramKey('a', -1), gramKey('a', 'b'), gramKey(utf8.RuneError, utf8.MaxRune),
		gramKey(utf8.MaxRune, -1), gramKey(utf8.MaxRune, 0), gramKey(utf8.MaxRune, utf8.MaxRune)}
	ids := []int{0, 1, 1<<runIDBits - 1}
	var prev uint64
	for i, k := range keys {
		for j, id := range ids {
			p := packPair(k, id)
			if pairKey(p) != k || int(p&(1<<runIDBits-1)) != id {
				t.Errorf("key %x, id %d packed as %x: key %x, id %d", k, id, p, pairKey(p), p&(1<<runIDBits-1))
			}
			if (i > 0 || j > 0) && p <= prev {
				t.Errorf("key %x, id %d packed as %x, not above the pair before, %x", k, id, p, prev)
			}
			prev = p
		}
	}
}

func TestMergeGramRunsRefusesABrokenRun(t *testing.T) {
	run := func(t *testing.T, uvarints ...uint64) *os.File {
		var b []byte
		for _, u := range uvarints {
			b = binary.AppendUvarint(b, u)
		}
		f, err := os.CreateTemp(t.TempDir(), "run")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		if _, err := f.Write(b); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Seek(0, 0); err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, tc := range []struct {
		name string
		runs [][]uint64 // each: key delta, count, id deltas...
		want []uint64   // the merge: key, count, ids...
	}{
		{"runs whose ids rise merge", [][]uint64{{5, 2, 0, 3}, {5, 1, 4, 2, 1, 9}}, []uint64{5, 3, 0, 3, 4, 7, 1, 9}},
		{"a key's ids repeated in a run", [][]uint64{{5, 2, 3, 0}}, nil},
		{"a later run's id not above an earlier run's", [][]uint64{{5, 1, 3}, {5, 1, 3}}, nil},
		{"a key of no ids", [][]uint64{{5, 0}}, nil},
		{"a run cut short after a key", [][]uint64{{5}}, nil},
		{"a run cut short in its ids", [][]uint64{{5, 2, 1}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var files []*os.File
			for _, r := range tc.runs {
				files = append(files, run(t, r...))
			}
			var got []uint64
			err := mergeGramRuns(files, func(k, n uint64) error {
				got = append(got, k, n)
				return nil
			}, func(x uint64) error {
				got = append(got, x)
				return nil
			})
			if tc.want == nil && err != errCorruptRun || tc.want != nil && (err != nil || !reflect.DeepEqual(got, tc.want)) {
				t.Errorf("%v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
