package search

import (
	"cmp"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/decoder"
)

// worstQuery is 100 distinct words, each in many terms of a generated
// corpus (its words are syllables of the letters below): the most
// posting lists a query within the keyword limit can make the index read.
func worstQuery() []string {
	var q []string
	for _, c := range "aeioubcdfghjklmnprstvwz" {
		q = append(q, string(c))
	}
	for _, c := range "bcdfghjklmnprstvwz" {
		for _, v := range "aeiou" {
			if len(q) < decoder.DefaultMaxKeywords {
				q = append(q, string(c)+string(v))
			}
		}
	}
	return q
}

// pairs are the words of ws two by two, each pair a phrase, OR between
// them.
func pairs(ws []string) []string {
	var q []string
	for i := 0; i+1 < len(ws); i += 2 {
		if i > 0 {
			q = append(q, "OR")
		}
		q = append(q, `"`+ws[i]+" "+ws[i+1]+`"`)
	}
	return q
}

// indexCost runs one search in the index whose manifest is at path and
// says what it did, in all its segments.
func indexCost(t testing.TB, path string, q *Query) searchCost {
	t.Helper()
	c, _ := indexCostAlloc(t, path, q)
	return c
}

// indexCostAlloc is indexCost and the bytes the search allocates, the
// segments open.
func indexCostAlloc(t testing.TB, path string, q *Query) (searchCost, uint64) {
	t.Helper()
	segs, err := openSegments(path)
	if err != nil {
		t.Fatal(err)
	}
	defer closeSegments(segs)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, _, err := searchSegments(segs, q, 0, DefaultPageSize); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	var c searchCost
	for _, ix := range segs {
		c.lists += ix.cost.lists
		c.postings += ix.cost.postings
		c.records += ix.cost.records
		c.positions += ix.cost.positions
		c.bytes += ix.cost.bytes
	}
	return c, after.TotalAlloc - before.TotalAlloc
}

func TestQueryCostIsBounded(t *testing.T) {
	dir := corpus(t, 300, 3)
	st, err := (&Folder{Dir: dir}).Build()
	if err != nil {
		t.Fatal(err)
	}
	one := indexCost(t, st.Path, queryOf(t, "a"))
	if one.postings < 1000 {
		t.Fatalf("a one-letter word decodes only %d posting entries: the corpus proves nothing", one.postings)
	}
	for _, tc := range []struct {
		name  string
		query []string
	}{
		{"100 words that each hit many terms", worstQuery()},
		{"one word 100 times", strings.Fields(strings.Repeat("e ", 100))},
		{"100 words in one keyword, cut at spaces of every kind", []string{strings.Join(worstQuery(), "\u3000")}},
		{"a phrase of 100 words that each hit many terms", []string{`"` + strings.Join(worstQuery(), " ") + `"`}},
		{"a phrase of one word 100 times", []string{`"` + strings.Repeat("e ", 100) + `"`}},
		{"50 phrases of two words, any of them", pairs(worstQuery())},
	} {
		t.Run(tc.name+" costs at most 10 times a one-letter word", func(t *testing.T) {
			c := indexCost(t, st.Path, queryOf(t, tc.query...))
			if c.postings > 10*one.postings || c.records > 10*max(one.records, 1) || c.positions > 10*one.postings {
				t.Errorf("cost %+v; one word %+v", c, one)
			}
			t.Logf("cost %+v; one word %+v", c, one)
		})
	}
	t.Run("a repeated word is read once, and weighs as often as it is given", func(t *testing.T) {
		e := queryOf(t, "e")
		e3 := queryOf(t, "e", "E", "ｅ")
		if len(e3.needles) != 1 || e3.needles[0].weight != 3 {
			t.Fatalf("needles %+v", e3)
		}
		if c1, c3 := indexCost(t, st.Path, e), indexCost(t, st.Path, e3); c1 != c3 {
			t.Errorf("cost %+v for e thrice; %+v once", c3, c1)
		}
		got, err := indexAll(st.Path, e3)
		want, _, _ := scanAll(dir, e3)
		once, _, _ := scanAll(dir, e)
		if err != nil || !reflect.DeepEqual(got, want) || len(got) == 0 || got[0].Score != 3*once[0].Score {
			t.Errorf("%v: index %+v\nscan %+v", err, got, want)
		}
	})
	t.Run("more words than the limit, however the keywords hold them, are a LimitError", func(t *testing.T) {
		for _, q := range [][]string{
			strings.Fields(strings.Repeat("e ", 101)),
			{strings.Repeat("e ", 2000)},
			{strings.Repeat("e\u3000", 101)},
			{strings.Repeat("\ufdfa", 34)}, // 3 spaces each once folded: 103 words
		} {
			_, err := ParseQuery(q, decoder.DefaultMaxKeywords)
			var le *decoder.LimitError
			if !errors.As(err, &le) || le.Limit != "keywords" || le.Max != decoder.DefaultMaxKeywords {
				t.Errorf("%.40q: %v", q, err)
			}
		}
	})
}

// BenchmarkWorstQuery searches the generated documents for the worst
// query within the keyword limit and for one letter, in the index and by
// the scan, and reports how many times the one letter's time the worst
// query takes each way.
//
//	go test -run '^$' -bench WorstQuery -benchtime 3x ./search
func BenchmarkWorstQuery(b *testing.B) {
	dir := searchCorpus(b)
	path := filepath.Join(dir, IndexName)
	worst, one := queryOf(b, worstQuery()...), queryOf(b, "a")
	for _, way := range []struct {
		name   string
		search func(*Query) error
	}{
		{"index", func(n *Query) error { _, err := indexAll(path, n); return err }},
		{"scan", func(n *Query) error { _, _, err := scanAll(dir, n); return err }},
	} {
		b.Run(way.name, func(b *testing.B) {
			var tw, to time.Duration
			for b.Loop() {
				t0 := time.Now()
				if err := way.search(worst); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := way.search(one); err != nil {
					b.Fatal(err)
				}
				tw, to = tw+t1.Sub(t0), to+time.Since(t1)
			}
			b.ReportMetric(float64(tw.Milliseconds())/float64(b.N), "worst-ms/op")
			b.ReportMetric(float64(to.Milliseconds())/float64(b.N), "one-word-ms/op")
			b.ReportMetric(float64(tw)/float64(to), "x-one-word")
		})
	}
}

// TestQueryCostDoesNotGrowWithTheDocuments holds a one-word query to the
// same bytes read from the index over 1,000 documents and over 20,000:
// the dictionary, the terms table, the word's posting list and the
// records shown, never a table of every document; nor does what it
// allocates (a table by document number, even one never read whole,
// faults in a page for nearly every match). (A CGI process over
// 100,000 generated documents measured the same: BENCHMARKS.md.)
func TestQueryCostDoesNotGrowWithTheDocuments(t *testing.T) {
	type costs struct {
		searchCost
		alloc uint64
	}
	cost := func(n int) costs {
		docs := map[string]string{}
		for i := range n {
			text := "Alpha\nalpha beta gamma"
			if i%(n/5) == 0 {
				text += " needle"
			}
			docs[fmt.Sprintf("d%d/%d.txt", i/1000, i)] = text
		}
		dir := makeIndex(t, docs)
		st, err := (&Folder{Dir: dir}).Build()
		if err != nil {
			t.Fatal(err)
		}
		c, alloc := indexCostAlloc(t, st.Path, queryOf(t, "needle"))
		return costs{c, alloc}
	}
	small, large := cost(1000), cost(20000)
	if large.bytes > small.bytes*3/2 || large.records != small.records || large.postings != 5 || large.alloc > small.alloc*3/2 {
		t.Errorf("over 20,000 documents %+v; over 1,000 %+v", large, small)
	}
	t.Logf("over 20,000 documents %+v; over 1,000 %+v", large, small)
}

// TestWhatAQueryAllocatesDoesNotGrowWithItsMatches: the matches of a
// segment are counted and the page's best kept as they come, not
// gathered in a slice of them all (over 100,000 documents a word
// matching thousands faulted in and copied tens of pages growing it).
func TestWhatAQueryAllocatesDoesNotGrowWithItsMatches(t *testing.T) {
	index := func(n int) string {
		docs := map[string]string{}
		for i := range n {
			docs[fmt.Sprintf("d%d/%d.txt", i/1000, i)] = fmt.Sprintf("Doc %d\nalpha needle beta%s", i, strings.Repeat(" needle", i%3))
		}
		return built(t, makeIndex(t, docs))
	}
	few, many := index(200), index(10000)
	for _, tc := range []struct {
		name  string
		query []string
	}{
		{"a word in every document", []string{"needle"}},
		{"a phrase in every document", []string{`"alpha needle"`}},
		{"two words in every document", []string{"alpha", "beta"}},
	} {
		t.Run(tc.name+" allocates as much over 10,000 documents as over 200", func(t *testing.T) {
			q := queryOf(t, tc.query...)
			_, small := indexCostAlloc(t, few, q)
			_, large := indexCostAlloc(t, many, q)
			if large > small*3/2 {
				t.Errorf("over 10,000 documents %d bytes allocated; over 200, %d", large, small)
			}
			t.Logf("over 10,000 documents %d bytes allocated; over 200, %d", large, small)
		})
	}
}

func TestTopKIsTheHeadOfAStableSortByScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name      string
		n, scores int
	}{
		{"a few matches, all tied", 7, 1},
		{"many matches, many ties", 500, 4},
		{"many matches, few ties", 500, 1000},
	} {
		t.Run(tc.name+" give the same k best, in the same order, for every k", func(t *testing.T) {
			all := make([]cand, tc.n)
			for i := range all {
				all[i] = cand{doc: 3 * i, score: rng.IntN(tc.scores)}
			}
			want := slices.Clone(all)
			slices.SortStableFunc(want, func(a, b cand) int { return cmp.Compare(b.score, a.score) })
			for _, k := range []int{-1, 0, 1, 2, 10, tc.n / 2, tc.n - 1, tc.n, tc.n + 1} {
				top := topK{k: k}
				for _, c := range all {
					top.add(c)
				}
				got := top.best()
				w := want
				if k >= 0 && k < len(w) {
					w = w[:k]
				}
				if !slices.Equal(got, w) || top.n != tc.n {
					t.Errorf("k %d: %v of %d, want %v of %d", k, got, top.n, w, tc.n)
				}
			}
		})
	}
}

// TestAJapaneseWordReadsOneListABigram holds a Japanese word found in
// many sentences (each a term of its own) to the posting lists of its
// bigrams: one list a distinct bigram, whatever the number of sentences
// holding it, and its entries at most one a document per list.
func TestAJapaneseWordReadsOneListABigram(t *testing.T) {
	const n = 2000
	dir := japaneseSite(t, n)
	path := built(t, dir)
	for _, tc := range []struct {
		word  string
		lists int
	}{
		{"会社", 1}, {"株式会社", 3}, {"お問い合わせ", 5},
	} {
		t.Run(tc.word+" reads one posting list a bigram", func(t *testing.T) {
			q := queryOf(t, tc.word)
			want, _, _ := scanAll(dir, q)
			if len(want) < n/4 {
				t.Fatalf("%d documents hold %s: the test says little", len(want), tc.word)
			}
			c := indexCost(t, path, q)
			if c.lists != tc.lists || c.postings > tc.lists*n {
				t.Errorf("cost %+v over %d documents holding it", c, len(want))
			}
			t.Logf("cost %+v over %d documents holding it", c, len(want))
		})
	}
	t.Run("a word longer than maxBigramRunes reads the terms holding it, not the long lists of its bigrams", func(t *testing.T) {
		q := queryOf(t, "お問い合わせください")
		want, _, _ := scanAll(dir, q)
		c := indexCost(t, path, q)
		if c.postings > len(want) || len(want) == 0 {
			t.Errorf("cost %+v over %d documents holding it", c, len(want))
		}
		t.Logf("cost %+v over %d documents holding it", c, len(want))
	})
}

// TestCJKWordsSharingBigramsReadEachListOnce asks for many words that
// share bigrams (会社 in each): the posting list of a bigram is read once
// for all of them, not once a word, so the query decodes at most as many
// entries as documents hold its distinct bigrams, counted from the
// folded documents.
func TestCJKWordsSharingBigramsReadEachListOnce(t *testing.T) {
	const n = 2000
	dir := japaneseSite(t, n)
	path := built(t, dir)
	var words []string
	for _, p := range strings.Fields("案内 お問い合わせ ください です ます の を に は が と 日本語 文書 情報 技術 開発 品質 用紙 注文 納期 価格 株式会社 大阪 新しい") {
		words = append(words, "会社"+p, p+"会社")
	}
	bigrams := map[string]bool{}
	for _, w := range words {
		for _, k := range wordBigrams(w) {
			bigrams[gramString(k)] = true
		}
	}
	holding := 0 // documents holding a bigram, summed over the bigrams
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".txt") {
			return err
		}
		b, err := os.ReadFile(p)
		text := fold(string(b)).text
		for bg := range bigrams {
			if strings.Contains(text, bg) {
				holding++
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		q    []string
	}{
		{"every word", words},
		{"any word", pairsOR(words)},
	} {
		t.Run(tc.name+" of words sharing bigrams reads each bigram's list once", func(t *testing.T) {
			q := queryOf(t, tc.q...)
			c := indexCost(t, path, q)
			if c.lists != len(bigrams) || c.postings > holding {
				t.Errorf("cost %+v: %d distinct bigrams in %d documents in all", c, len(bigrams), holding)
			}
			t.Logf("cost %+v: %d distinct bigrams in %d documents in all", c, len(bigrams), holding)
			answersAsTheScan(t, dir, path, q)
		})
	}
}

// pairsOR is ws with OR between each two.
func pairsOR(ws []string) []string {
	var q []string
	for i, w := range ws {
		if i > 0 {
			q = append(q, "OR")
		}
		q = append(q, w)
	}
	return q
}

// freshSearchEnv names the folder a test binary run by freshSearch
// searches, in a process of its own.
const freshSearchEnv = "CGIGATE_TEST_FRESH_SEARCH"

// freshSearch searches the index of dir for "needle", a page of ten, in
// a fresh process, as a CGI search runs, and says what the search
// allocated, whether it made crc32's Castagnoli tables, and whether the
// process has the runtime's poller (an epoll descriptor) after it.
func freshSearch(t *testing.T, dir string) (allocated int, crcTables, poller bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFreshSearch$", "-test.count=1")
	cmd.Env = append(os.Environ(), freshSearchEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if _, serr := fmt.Sscanf(string(out), "allocated %d, crc32 tables %t, poller %t", &allocated, &crcTables, &poller); err != nil || serr != nil {
		t.Fatalf("%v, %v: %s", err, serr, out)
	}
	return allocated, crcTables, poller
}

// TestFreshSearch is the search freshSearch runs; without its folder, it
// does nothing.
func TestFreshSearch(t *testing.T) {
	dir := os.Getenv(freshSearchEnv)
	if dir == "" {
		t.Skip("run by freshSearch")
	}
	q := queryOf(t, "needle")
	made := false
	defer func(f func() *crc32.Table) { castagnoli.New = f }(castagnoli.New)
	castagnoli.New = func() *crc32.Table {
		made = true
		return crc32.MakeTable(crc32.Castagnoli)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p, err := (&Folder{Dir: dir}).Search(q, 1, DefaultPageSize)
	runtime.ReadMemStats(&after)
	if err != nil || len(p.Results) != DefaultPageSize || len(p.Warnings) != 0 || !strings.HasPrefix(p.Results[0].Snippet, ellipsis) {
		t.Fatalf("%v: %+v", err, p)
	}
	poller := false
	for fd := range 256 { // by their links: listing the folder would open it
		if l, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); l == "anon_inode:[eventpoll]" {
			poller = true
		}
	}
	fmt.Printf("allocated %d, crc32 tables %t, poller %t\n", after.TotalAlloc-before.TotalAlloc, made, poller)
}

// TestASearchMakesNoPoller: os.Open offers every file to the runtime's
// poller, whose first use makes an epoll instance and an eventfd, a dozen
// system calls and a few fresh pages in a CGI process that answers one
// search, for regular files the poller refuses anyway: the index's files
// are opened as bare descriptors.
func TestASearchMakesNoPoller(t *testing.T) {
	if _, _, poller := freshSearch(t, docsWithANeedle(t, 1<<10)); poller {
		t.Error("a search in a fresh process made the runtime's poller")
	}
}

// docsWithANeedle is an index of 30 ASCII documents of about size bytes,
// each holding "needle" once, in its middle.
func docsWithANeedle(t *testing.T, size int) string {
	return docsOfWithANeedle(t, "Printing Press and paper ", size)
}

// docsOfWithANeedle is an index of 30 documents of about size bytes,
// each words repeated, "needle" once in their middle.
func docsOfWithANeedle(t *testing.T, words string, size int) string {
	text := strings.Repeat(words, size/2/len(words))
	docs := map[string]string{}
	for i := range 30 {
		docs[fmt.Sprintf("d%d.txt", i)] = fmt.Sprintf("Document %d\n%s needle %s", i, text, text)
	}
	dir := makeIndex(t, docs)
	built(t, dir)
	return dir
}

func TestAPageOfResultsAllocatesAboutOneDocument(t *testing.T) {
	const docSize = 8 << 10
	for _, tc := range []struct{ name, words string }{
		{"English text", "Printing Press and paper "},
		// The full-width spaces fold to spaces without x/text's table
		// of compositions (37 KB), which norm.Iter builds on the first
		// character it composes.
		{"Japanese text with full-width spaces", "活版印刷の東京\u3000検索サービス\u3000ですが、"},
	} {
		t.Run("a page of ten documents of "+tc.name+" allocates about one document", func(t *testing.T) {
			n, _, _ := freshSearch(t, docsOfWithANeedle(t, tc.words, docSize))
			// One document folded and its snippet, the buffer records are
			// read into, the manifest, crc32's tables (9 KiB: the records
			// alone are 80 KiB to check), the query's work (a Japanese
			// query's, a few KiB more).
			if most := 3*docSize + 32<<10; n > most {
				t.Errorf("a page of 10 results of %d bytes each allocated %d bytes; want at most %d", docSize, n, most)
			}
			t.Logf("a page of 10 results of %d bytes each allocated %d bytes", docSize, n)
		})
	}
}

// TestASmallSearchChecksWithoutCRC32sTables: a search that checks less
// than cheapBytes (ten records of 1 KiB, their posting list, the
// manifest and header) makes none of the tables of crc32's Castagnoli
// code; one that checks more does (TestAPageOfResultsAllocatesAboutOneDocument's).
func TestASmallSearchChecksWithoutCRC32sTables(t *testing.T) {
	for _, tc := range []struct {
		size int
		want bool
	}{{1 << 10, false}, {16 << 10, true}} {
		if _, made, _ := freshSearch(t, docsWithANeedle(t, tc.size)); made != tc.want {
			t.Errorf("a page of 10 results of %d bytes each: crc32's tables made %v; want %v", tc.size, made, tc.want)
		}
	}
}

func TestChecksumsAreCRC32C(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{0, 1, 7, 100, 4000, cheapBytes, 3 * cheapBytes} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		want := crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))
		if got := checksum(b); got != want {
			t.Errorf("checksum of %d bytes %08x; want %08x", n, got, want)
		}
		if got := crc32Update(checksum(b[:n/3]), b[n/3:]); got != want {
			t.Errorf("checksum of %d bytes in two parts %08x; want %08x", n, got, want)
		}
		if got := crc32.Checksum(b, castagnoliBytewise.Get()); got != want {
			t.Errorf("the byte-at-a-time loop's checksum of %d bytes %08x; want %08x", n, got, want)
		}
	}
}

func TestChecksumsInPiecesAcrossTheSwitchAreCRC32C(t *testing.T) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	rng := rand.New(rand.NewPCG(10, 10))
	b := make([]byte, 3*cheapBytes)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	for n := range 301 {
		if got, want := crc32.Checksum(b[:n], castagnoliBytewise.Get()), crc32.Checksum(b[:n], tab); got != want {
			t.Errorf("the byte-at-a-time loop's checksum of %d bytes %08x; want %08x", n, got, want)
		}
	}
	// Pieces of every size up to 40 KiB, from every point of the process's
	// cheap bytes on: some by one table, some by the other, one switching.
	defer checkedCheap.Store(checkedCheap.Load())
	want := crc32.Checksum(b, tab)
	for range 50 {
		checkedCheap.Store(int64(rng.IntN(cheapBytes + 1)))
		crc := checksum(nil)
		for at := 0; at < len(b); {
			n := min(len(b)-at, rng.IntN(40<<10))
			crc = crc32Update(crc, b[at:at+n])
			at += n
		}
		if crc != want {
			t.Fatalf("checksum of %d bytes in pieces %08x; want %08x", len(b), crc, want)
		}
	}
}
