package search

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// mapped reports the segments of dir kept mapped, and how many mappings
// were made and unmapped so far.
func mapped(dir string) (names []string, made, undone int) {
	mappings.Lock()
	defer mappings.Unlock()
	for p := range mappings.byPath {
		if filepath.Dir(p) == dir {
			names = append(names, filepath.Base(p))
		}
	}
	slices.Sort(names)
	return names, mappings.made, mappings.undone
}

func liveSegments(t *testing.T, dir string) []string {
	t.Helper()
	m, err := readManifest(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range m.segs {
		names = append(names, s.name)
	}
	slices.Sort(names)
	return names
}

func TestSearchesKeepTheSegmentsMappedUntilAnUpdateReplacesThem(t *testing.T) {
	dir := t.TempDir()
	for i, s := range []string{"printing press", "offset printing", "paper"} {
		writeDoc(t, dir, "d"+string(rune('0'+i))+".txt", s, 0)
	}
	f := &Folder{Dir: dir}
	if _, err := f.Build(); err != nil {
		t.Fatal(err)
	}
	search := func(want int) {
		t.Helper()
		p, err := f.Search(queryOf(t, "printing"), 1, 10)
		if err != nil || len(p.Warnings) > 0 || p.Total != want {
			t.Fatalf("search: %v %q, total %d, want %d", err, p.Warnings, p.Total, want)
		}
	}
	// Whatever the build decided (a small segment, or a merge into a new
	// main one), a search maps the segments the manifest names that were
	// not kept, and unmaps the kept ones it no longer names.
	step := func(name string, total int) {
		t.Helper()
		before, made0, undone0 := mapped(dir)
		search(total)
		names, made, undone := mapped(dir)
		live := liveSegments(t, dir)
		wantMade, wantUndone := 0, 0
		for _, n := range live {
			if !slices.Contains(before, n) {
				wantMade++
			}
		}
		for _, n := range before {
			if !slices.Contains(live, n) {
				wantUndone++
			}
		}
		if !slices.Equal(names, live) || made-made0 != wantMade || undone-undone0 != wantUndone {
			t.Errorf("%s: kept %q (the manifest names %q, %q kept before), %d mapped and %d unmapped, want %d and %d",
				name, names, live, before, made-made0, undone-undone0, wantMade, wantUndone)
		}
	}
	step("the first search maps the main segment", 2)
	step("a second search maps nothing", 2)
	writeDoc(t, dir, "e.txt", "printing again", 1)
	if _, err := f.Build(); err != nil {
		t.Fatal(err)
	}
	step("after an update, what it wrote is mapped", 3)
	writeDoc(t, dir, "f.txt", "printing once more", 2)
	if _, err := f.Rebuild(); err != nil {
		t.Fatal(err)
	}
	step("after a rebuild, the new main segment is mapped and the old ones unmapped", 4)
	if _, made, _ := mapped(dir); made < 2 {
		t.Errorf("%d mappings made in all, want at least 2", made)
	}
	if err := os.Remove(filepath.Join(dir, IndexName)); err != nil {
		t.Fatal(err)
	}
	_, _, undone0 := mapped(dir)
	search(4) // the scan answers
	if names, _, undone := mapped(dir); len(names) != 0 || undone-undone0 != 1 {
		t.Errorf("after the manifest is removed: kept %q, %d unmapped; want none kept and 1 unmapped", names, undone-undone0)
	}
}

func TestAPageOutlivesTheMappingItWasReadFrom(t *testing.T) {
	// A record's text is read in the mapping, and the mapping is unmapped
	// once no search uses it: nothing of a Page may be a piece of it.
	dir := t.TempDir()
	long := strings.Repeat("Ａｂｃ wörd é\u0301 ", 40)
	for i, s := range []string{"Printing Präss\n" + long + " printing " + long, "Titel printing\nprinting offset", "x\nprinting"} {
		writeDoc(t, dir, "d"+string(rune('0'+i))+".txt", s, 0)
	}
	f := &Folder{Dir: dir}
	if _, err := f.Build(); err != nil {
		t.Fatal(err)
	}
	pages := make([]*Page, 4) // searched at once, from the same mapping
	var wg sync.WaitGroup
	for i := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := f.Search(queryOf(t, "printing"), 1, 10)
			if err != nil || len(p.Warnings) > 0 || p.Total != 3 {
				t.Errorf("search: %v %+v", err, p)
				return
			}
			pages[i] = p
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	text := func(p *Page) string {
		var b strings.Builder
		for _, r := range p.Results {
			fmt.Fprintf(&b, "%s|%s|%s|", r.Title, r.URL, r.Snippet)
			for _, pt := range r.Parts() {
				b.WriteString(pt.Text)
			}
		}
		return b.String()
	}
	before := text(pages[0])
	_, _, undone0 := mapped(dir)
	if err := os.Remove(filepath.Join(dir, IndexName)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Search(queryOf(t, "printing"), 1, 10); err != nil { // the scan answers, and drops the mapping
		t.Fatal(err)
	}
	if _, _, undone := mapped(dir); undone-undone0 != 1 {
		t.Fatalf("%d mappings unmapped; want 1", undone-undone0)
	}
	for i, p := range pages { // a piece of the mapping faults here
		if got := text(p); got != before {
			t.Errorf("page %d after the unmapping: %q; before: %q", i, got, before)
		}
	}
	if !strings.Contains(before, "Präss") || !strings.Contains(before, "wörd") {
		t.Errorf("the page %q lacks the documents' title and text", before)
	}
}

// protectRecords makes the pages of ix's mapping that hold only records
// or their table entries unreadable, and gives back the function that
// makes them readable again. It fails the test if there are none.
func protectRecords(t *testing.T, ix *index) func() {
	t.Helper()
	page := uint64(os.Getpagesize())
	var undo []func()
	for _, i := range []int{secDocs, secDocTab} {
		s := ix.secs[i]
		lo, hi := (s.off+page-1)/page*page, (s.off+s.len)/page*page
		if lo >= hi {
			continue
		}
		b := ix.data[lo:hi]
		if err := syscall.Mprotect(b, syscall.PROT_NONE); err != nil {
			t.Fatal(err)
		}
		undo = append(undo, func() { syscall.Mprotect(b, syscall.PROT_READ) })
	}
	if len(undo) == 0 {
		t.Fatal("no page holds only records")
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

func TestRecordsAreReadWithPreadWhenTheSegmentIsMappedAfresh(t *testing.T) {
	// In a process that has not read the segment before, its records'
	// pages are not in the page tables, and a pread of each record costs
	// less than the faults of reading it in place; once a search has
	// mapped the segment (a FastCGI process), its pages are, and the
	// records are read in place. Shown by making the records' pages of
	// the mapping unreadable: a record read in place faults.
	for _, tc := range []struct {
		name    string
		fresh   bool
		inPlace bool
	}{
		{"a search that maps the segment reads no record through the mapping", true, false},
		{"a search of a segment already mapped reads the records in place", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := docsWithANeedle(t, 8<<10)
			path := filepath.Join(dir, IndexName)
			q := queryOf(t, "needle")
			first, err := openSegments(path)
			if err != nil {
				t.Fatal(err)
			}
			defer closeSegments(first)
			segs := first
			if !tc.fresh {
				if segs, err = openSegments(path); err != nil {
					t.Fatal(err)
				}
				defer closeSegments(segs)
			}
			want, wantTotal, err := searchMapped(first, q, 0, 10)
			if err != nil || len(want) != 10 {
				t.Fatalf("the search before the pages are protected: %v, %d hits", err, len(want))
			}
			unprotect := protectRecords(t, segs[0])
			got, total, err := searchMapped(segs, q, 0, 10)
			unprotect()
			if faulted := errors.Is(err, errCorruptIndex); faulted != tc.inPlace {
				t.Fatalf("read in place (a fault): %v, want %v (error %v)", faulted, tc.inPlace, err)
			}
			if !tc.inPlace && (total != wantTotal || fmt.Sprint(got) != fmt.Sprint(want)) {
				t.Errorf("with the records' pages unreadable: %d, %v; want %d, %v", total, got, wantTotal, want)
			}
		})
	}
}
