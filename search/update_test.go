package search

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cgigate/cgigate/bench"
)

// past is a modification time well before any build: a document written
// by a test and then given a time of its own is not taken for one that
// may still be changing (racyWindow), so an update reads exactly the
// documents a test changes.
func past(n int) time.Time { return time.Unix(1_000_000_000+int64(n)*60, 0) }

// writeDoc writes a document of dir and gives it the time past(at).
func writeDoc(t testing.TB, dir, rel, content string, at int) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, past(at), past(at)); err != nil {
		t.Fatal(err)
	}
}

// age gives every document of dir the time past(0).
func age(t testing.TB, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			err = os.Chtimes(p, past(0), past(0))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rebuiltCopy copies dir's documents to a new folder and builds its index
// from scratch: what a full rebuild answers.
func rebuiltCopy(t *testing.T, dir string) string {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	st, err := (&Folder{Dir: cp}).Rebuild()
	if err != nil || !st.Full {
		t.Fatalf("%v %+v", err, st)
	}
	return cp
}

// updateQueries are searched after every update: the generator's words,
// the documents the steps write, phrases, an exclusion, OR.
var updateQueries = [][]string{
	{bench.Needle}, {bench.Hay}, {bench.Needle, bench.Hay}, {"a"}, {"e"},
	{"zebra"}, {"quagga"}, {"straße"}, {"ｲﾝｻﾂ"}, {`"zebra crossing"`},
	{"zebra", "-quagga"}, {"zebra", "OR", "okapi"}, {"größe"},
	{`"zebra crossing"`, "OR", "okapi"}, {"zebra", `-"zebra crossing"`}, {`"zebra herd quagga"`},
	{"印刷"}, {"活版印刷"}, {"インサツ"}, {"印刷", "-活版"}, {"動物園", "OR", "印刷"},
}

// sameAnswers checks that the index of dir answers every update query as
// the scan of dir and the index of a full rebuild of a copy do, hit for
// hit (path, title, snippet, score, highlights, in order), and pages as
// they do.
func sameAnswers(t *testing.T, dir string) {
	t.Helper()
	cp := rebuiltCopy(t, dir)
	for _, words := range updateQueries {
		q := queryOf(t, words...)
		got, err := indexAll(filepath.Join(dir, IndexName), q)
		if err != nil {
			t.Fatalf("%q: %v", words, err)
		}
		scanned, _, err := scanAll(dir, q)
		if err != nil {
			t.Fatal(err)
		}
		rebuilt, err := indexAll(filepath.Join(cp, IndexName), q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, scanned) || !reflect.DeepEqual(got, rebuilt) {
			t.Fatalf("query %q:\nupdated %+v\nscan    %+v\nrebuilt %+v", words, got, scanned, rebuilt)
		}
		for _, page := range []int{1, 2, 3} {
			a, err := (&Folder{Dir: dir}).Search(q, page, 4)
			b, err2 := (&Folder{Dir: cp}).Search(q, page, 4)
			if err != nil || err2 != nil || !reflect.DeepEqual(a, b) || len(a.Warnings) != 0 {
				t.Fatalf("query %q page %d: %v %v\nupdated %+v\nrebuilt %+v", words, page, err, err2, a, b)
			}
		}
	}
}

func TestUpdatesAnswerAsTheScanAndARebuild(t *testing.T) {
	dir := corpus(t, 120, 5)
	writeDoc(t, dir, "zoo/zebra.txt", "Zebra crossing\nA zebra crossing near the quagga.", 0)
	writeDoc(t, dir, "zoo/okapi.html", "<title>Okapi</title><p>the okapi is shy</p>", 0)
	age(t, dir)
	f := &Folder{Dir: dir}
	st, err := f.Build()
	if err != nil || !st.Full {
		t.Fatalf("%v %+v", err, st)
	}
	sameAnswers(t, dir)
	updates, merges := 0, 0
	for _, step := range []struct {
		name   string
		change func()
		read   int // documents the update reads, unless it merges
	}{
		{"a document added", func() { writeDoc(t, dir, "zoo/zebra2.txt", "another zebra crossing, no quagga", 1) }, 1},
		{"a document changed, same size, new time", func() {
			writeDoc(t, dir, "zoo/zebra.txt", "Zebra crossing\nA zebra crossing near the okapi!", 2)
		}, 1},
		{"a document changed, new size", func() {
			writeDoc(t, dir, "zoo/okapi.html", "<title>Okapi</title><p>the okapi is shy of the zebra</p>", 3)
		}, 1},
		{"a document removed", func() { os.Remove(filepath.Join(dir, "zoo/zebra2.txt")) }, 0},
		{"a document renamed", func() {
			os.Rename(filepath.Join(dir, "zoo/okapi.html"), filepath.Join(dir, "a-okapi.html"))
		}, 1},
		{"a Japanese document added", func() {
			writeDoc(t, dir, "zoo/japan.txt", "活版印刷の動物園\n印刷印刷、動物園の印刷", 3)
		}, 1},
		{"the Japanese document changed", func() { writeDoc(t, dir, "zoo/japan.txt", "動物園　活版印刷活版印刷", 4) }, 1},
		{"a document in UTF-8 added", func() { writeDoc(t, dir, "zoo/latin.txt", "Größe und zebra", 4) }, 1},
		{"its charset changed to Latin-1", func() { writeDoc(t, dir, "zoo/latin.txt", "Gr\xf6\xdfe und zebra", 5) }, 1},
		{"a document renamed back", func() {
			os.Rename(filepath.Join(dir, "a-okapi.html"), filepath.Join(dir, "zoo/okapi.html"))
		}, 1},
		{"documents added between neighbours, and one in a new folder", func() {
			writeDoc(t, dir, "zoo/zebra1.txt", "zebra one", 6)
			writeDoc(t, dir, "zoo/zebra10.txt", "zebra ten quagga", 6)
			writeDoc(t, dir, "zoo/zebra3.txt", "zebra three", 6)
			writeDoc(t, dir, "d/zebra.txt", "a zebra in d", 6)
		}, 4},
		{"one document added and another removed", func() {
			writeDoc(t, dir, "zoo/zebra11.txt", "zebra eleven okapi", 7)
			os.Remove(filepath.Join(dir, "zoo/zebra1.txt"))
		}, 1},
		{"many documents changed: a merge", func() {
			for j := range 14 {
				writeDoc(t, dir, fmt.Sprintf("many/z%d.txt", j), "zebra herd "+strings.Repeat("quagga ", j), 8)
			}
		}, 14},
		{"a document changed after the merge", func() { writeDoc(t, dir, "many/z3.txt", "zebra herd okapi", 9) }, 1},
	} {
		t.Run("after "+step.name+", the same answers", func(t *testing.T) {
			step.change()
			var reads atomic.Int64
			docRead = func(string) { reads.Add(1) }
			defer func() { docRead = nil }()
			st, err := f.Build()
			if err != nil {
				t.Fatal(err)
			}
			if st.Full {
				merges++
			} else {
				updates++
				if st.Read != step.read || int(reads.Load()) != step.read {
					t.Errorf("the update read %d documents (counted %d); want %d", st.Read, reads.Load(), step.read)
				}
			}
			t.Logf("%+v", st)
			sameAnswers(t, dir)
			checkNoLitter(t, dir)
		})
	}
	if updates < 6 || merges < 1 {
		t.Errorf("%d updates and %d merges: the steps test too little", updates, merges)
	}
	t.Run("a change of the text charset setting rebuilds whole", func(t *testing.T) {
		st, err := (&Folder{Dir: dir, TextCharset: "shift_jis"}).Build()
		if err != nil || !st.Full {
			t.Errorf("%v %+v", err, st)
		}
		st, err = (&Folder{Dir: dir, TextCharset: "shift_jis"}).Build()
		if err != nil || st.Full || st.Segment != "" {
			t.Errorf("the next build with the same setting: %v %+v", err, st)
		}
	})
	t.Run("Rebuild reads every document", func(t *testing.T) {
		st, err := f.Rebuild()
		if err != nil || !st.Full || st.Read < 120 {
			t.Errorf("%v %+v", err, st)
		}
	})
}

// checkNoLitter fails when dir holds an index file the manifest does not
// name.
func checkNoLitter(t *testing.T, dir string) {
	t.Helper()
	m, err := readManifest(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	live := m.names()
	names, _ := filepath.Glob(filepath.Join(dir, IndexName+"*"))
	for _, n := range names {
		if b := filepath.Base(n); b != IndexName && !live[b] {
			t.Errorf("left behind: %s", b)
		}
	}
}

func TestAnUpdateReadsOnlyTheChangedDocuments(t *testing.T) {
	dir := t.TempDir()
	if err := bench.GenerateIndex(dir, 2000, 3); err != nil {
		t.Fatal(err)
	}
	age(t, dir)
	f := &Folder{Dir: dir}
	if st, err := f.Build(); err != nil || st.Read != 2000 {
		t.Fatalf("%v %+v", err, st)
	}
	var docs []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && isDocName(p) {
			docs = append(docs, p)
		}
		return err
	})
	changed := []string{docs[7], docs[1000], docs[1999]}
	size := 0
	for i, p := range changed {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, " zebra"...)
		size += len(b)
		rel, _ := filepath.Rel(dir, p)
		writeDoc(t, dir, filepath.ToSlash(rel), string(b), i+1)
	}
	var read []string
	var mu sync.Mutex
	docRead = func(p string) { mu.Lock(); read = append(read, p); mu.Unlock() }
	defer func() { docRead = nil }()
	st, err := f.Build()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(read)
	slices.Sort(changed)
	if !slices.Equal(read, changed) || st.Read != 3 || st.Full || st.Live != 2000 {
		t.Errorf("the update read %q (%d); want %q\n%+v", read, st.Read, changed, st)
	}
	// The segment holds the 3 records, their terms, postings and grams
	// (gram.go) and the keys: a few times their bytes, whatever the 2,000
	// others.
	if st.Bytes > int64(headerSize+6*size) {
		t.Errorf("a segment of %d bytes for 3 documents of %d", st.Bytes, size)
	}
	t.Logf("%+v; the 3 documents: %d bytes", st, size)
	p, err := f.Search(queryOf(t, "zebra"), 1, 10)
	if err != nil || p.Total != 3 {
		t.Errorf("%v %+v", err, p)
	}
}

// Queries run while the index is updated, merged and rebuilt, again and
// again, see the old index or the new one: never an error, a warning (an
// index that could not be used), a document twice, or one missing of
// those no update touches.
func TestQueriesDuringUpdatesSeeOldOrNew(t *testing.T) {
	dir := t.TempDir()
	const n = 60
	for i := range n {
		writeDoc(t, dir, fmt.Sprintf("d%d.txt", i), fmt.Sprintf("common word %d", i), 0)
	}
	f := &Folder{Dir: dir}
	if _, err := f.Build(); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var queries atomic.Int64
	errs := make(chan string, 8)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := queryOf(t, "common")
			for !stop.Load() {
				p, err := f.Search(q, 1, 1000)
				queries.Add(1)
				seen := map[string]bool{}
				bad := ""
				if err != nil || len(p.Warnings) != 0 {
					bad = fmt.Sprintf("%v %q", err, p.Warnings)
				} else {
					for _, r := range p.Results {
						if seen[r.URL] {
							bad = "twice: " + r.URL
						}
						seen[r.URL] = true
					}
					for i := 10; i < n; i++ { // the updates touch d0-d9 and x*
						if u := fmt.Sprintf("d%d.txt", i); !seen[u] {
							bad = "missing: " + u
						}
					}
				}
				if bad != "" {
					select {
					case errs <- bad:
					default:
					}
					return
				}
			}
		}()
	}
	for i := 1; i <= 40; i++ {
		writeDoc(t, dir, fmt.Sprintf("d%d.txt", i%10), fmt.Sprintf("common word changed %d", i), i)
		if i%3 == 0 {
			writeDoc(t, dir, fmt.Sprintf("x%d.txt", i), "common and new", i)
		}
		if i%4 == 0 {
			os.Remove(filepath.Join(dir, fmt.Sprintf("x%d.txt", i-1)))
		}
		build := f.Build
		if i%10 == 0 {
			build = f.Rebuild
		}
		if _, err := build(); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	t.Logf("%d queries during 40 builds", queries.Load())
}

func TestABrokenUpdateFallsBackToTheScanOrARebuild(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 {
		writeDoc(t, dir, fmt.Sprintf("d%d.txt", i), fmt.Sprintf("zebra %d", i), 0)
	}
	f := &Folder{Dir: dir}
	if _, err := f.Build(); err != nil {
		t.Fatal(err)
	}
	writeDoc(t, dir, "d3.txt", "zebra quagga", 1)
	st, err := f.Build()
	if err != nil || st.Full || st.Segment == "" {
		t.Fatalf("%v %+v", err, st)
	}
	good, _ := os.ReadFile(st.Segment)
	want := searchFolder(t, dir, "zebra")
	if len(want.Results) != 40 || len(want.Warnings) != 0 {
		t.Fatalf("%+v", want)
	}
	m, err := readManifest(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, logs string
		breakIt    func()
	}{
		{"a small segment cut short", "corrupt index file", func() { os.WriteFile(st.Segment, good[:len(good)/2], 0o644) }},
		{"a small segment without its keys", "not the segment the manifest names", func() {
			ix := indexSections(t, st.Segment)
			ix.secs[secKeys] = section{}
			b := append([]byte(nil), good...)
			copy(b, encodeHeader(ix.docs, ix.nTerms, ix.secs))
			os.WriteFile(st.Segment, b, 0o644)
		}},
		{"a small segment where the main one should be", "not the segment the manifest names", func() {
			m2 := *m
			m2.segs = []segRef{m.segs[1], m.segs[0]}
			os.WriteFile(filepath.Join(dir, IndexName), m2.encode(), 0o644)
		}},
	} {
		t.Run(tc.name+" is logged and the documents are scanned", func(t *testing.T) {
			os.WriteFile(st.Segment, good, 0o644)
			os.WriteFile(filepath.Join(dir, IndexName), m.encode(), 0o644)
			tc.breakIt()
			got := searchFolder(t, dir, "zebra")
			if got.err != nil || !reflect.DeepEqual(got.Results, want.Results) || len(got.Warnings) != 1 || !strings.Contains(got.log, tc.logs) {
				t.Errorf("%v %q log %q", got.err, got.Warnings, got.log)
			}
		})
	}
	t.Run("a broken stat table makes the next build a full one", func(t *testing.T) {
		os.WriteFile(st.Segment, good, 0o644)
		os.WriteFile(filepath.Join(dir, IndexName), m.encode(), 0o644)
		flipByte(t, filepath.Join(dir, m.stat), 12)
		st, err := f.Build()
		if err != nil || !st.Full || st.Live != 40 {
			t.Errorf("%v %+v", err, st)
		}
		if got := searchFolder(t, dir, "zebra"); !reflect.DeepEqual(got.Results, want.Results) || len(got.Warnings) != 0 {
			t.Errorf("%+v", got)
		}
		checkNoLitter(t, dir)
	})
}
