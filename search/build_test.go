package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestRunsMergeIntoTheSameIndex(t *testing.T) {
	dir := corpus(t, 300, 4)
	build := func(postings, positions int) []byte {
		t.Helper()
		defer func(n, m int) { runPostings, runPositions = n, m }(runPostings, runPositions)
		runPostings, runPositions = postings, positions
		st, err := (&Folder{Dir: dir}).Rebuild()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(st.Segment)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one := build(1<<30, 1<<30)
	for _, tc := range []struct{ postings, positions int }{{1, 1 << 30}, {97, 1 << 30}, {5000, 1 << 30}, {1 << 30, 1000}} {
		t.Run(fmt.Sprintf("runs of %d postings or %d bytes of positions write the file one run writes, byte for byte", tc.postings, tc.positions), func(t *testing.T) {
			if got := build(tc.postings, tc.positions); !bytes.Equal(got, one) {
				t.Errorf("%d bytes; one run wrote %d", len(got), len(one))
			}
			if left, _ := filepath.Glob(filepath.Join(dir, IndexName+"-*")); len(left) != 0 {
				t.Errorf("left behind: %q", left)
			}
		})
	}
}

func TestMoreThanTenThousandDocuments(t *testing.T) {
	docs := map[string]string{}
	for i := range 10001 {
		docs[fmt.Sprintf("d%d/%d.txt", i/1000, i)] = fmt.Sprintf("doc %d", i)
	}
	dir := makeIndex(t, docs)
	st, err := (&Folder{Dir: dir}).Build()
	if err != nil || st.Docs != 10001 {
		t.Fatalf("%v: %d documents", err, st.Docs)
	}
	a := searchFolder(t, dir, "doc")
	if len(a.Results) != 1000 {
		t.Errorf("%d results on a page of 1000", len(a.Results))
	}
	p, err := (&Folder{Dir: dir}).Search(queryOf(t, "10000"), 1, 10)
	if err != nil || p.Total != 1 || p.Results[0].URL != "d10/10000.txt" {
		t.Errorf("%v %+v", err, p)
	}
	p, err = (&Folder{Dir: dir}).Search(queryOf(t, "doc"), 1, 10)
	if err != nil || p.Total != 10001 || p.Results[0].URL != "d0/0.txt" || p.Results[9].URL != "d0/9.txt" {
		t.Errorf("%v %+v", err, p)
	}
}

// sentenceSite is n documents, each an unsegmented Japanese sentence of
// its own of about 600 bytes: a term of its own, so the dictionary and
// the grams grow with n.
func sentenceSite(t *testing.T, n int) string {
	docs := map[string]string{}
	for i, text := range sentences(n, 75, 2) {
		docs[fmt.Sprintf("d%d/%d.txt", i/1000, i)] = text
	}
	return makeIndex(t, docs)
}

// heapPeak runs fn and gives the largest live heap the collector marked
// while it ran (runtime/metrics' /gc/heap/live:bytes, sampled, the
// collector run often) above the live heap before. The live heap, not
// HeapAlloc: HeapAlloc counts garbage not yet collected, which grows with
// how late the collector's workers run on a busy machine, not with what
// the build holds.
func heapPeak(fn func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	peak := base
	done, sampled := make(chan bool), make(chan bool)
	go func() {
		defer close(sampled)
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	fn()
	close(done)
	<-sampled
	// The last cycle's mark, for a peak reached since it.
	runtime.GC()
	metrics.Read(sample)
	return max(peak, sample[0].Value.Uint64()) - base
}

// TestBuildMemoryDoesNotFollowTheTerms builds indexes of n and 4n
// documents of a term each, with small bounds on the runs, and holds the
// heap the build peaks at to grow by no more than the tables of a
// document (its entry in the document table, the stat table and the
// walk's: 200 bytes a document) and 2 MiB: the dictionary, the term
// table, its index and the grams grow with the terms and go to disk.
func TestBuildMemoryDoesNotFollowTheTerms(t *testing.T) {
	defer func(p, g, f, pf int) {
		runPostings, gramRunPairs, gramFanIn, postingFanIn = p, g, f, pf
	}(runPostings, gramRunPairs, gramFanIn, postingFanIn)
	// Both sizes make many runs (each document's CJK bigrams are postings
	// too) and merge them in passes, as the grams are.
	runPostings, gramRunPairs, gramFanIn, postingFanIn = 8000, 1<<14, 8, 8
	const n = 4000
	var peaks [2]uint64
	for i, docs := range []int{n, 4 * n} {
		dir := sentenceSite(t, docs)
		peaks[i] = heapPeak(func() {
			st, err := (&Folder{Dir: dir}).Rebuild()
			if err != nil || st.Terms < docs {
				t.Fatalf("%v: %d terms", err, st.Terms)
			}
		})
	}
	t.Logf("heap peak over %d documents %d bytes, over %d %d", n, peaks[0], 4*n, peaks[1])
	if allowed := peaks[0] + 3*n*200 + 2<<20; peaks[1] > allowed {
		t.Errorf("%d terms peaked at %d bytes, %d at %d: more than %d", 4*n, peaks[1], n, peaks[0], allowed)
	}
}
