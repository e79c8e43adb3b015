package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// craftIndex rewrites the index at path as a tool could: it appends data
// at the end of the file, makes section sec (secDocs or secPostings) reach
// to the new end, points entry i of table (secDocTab or secTerms) at it,
// and recomputes every checksum, so that only what the reader checks
// beyond checksums can tell.
func craftIndex(t *testing.T, path string, sec, table, i int, data []byte) {
	t.Helper()
	ix := indexSections(t, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := uint64(len(b)) - ix.secs[sec].off
	b = append(b, data...)
	ix.secs[sec].len = uint64(len(b)) - ix.secs[sec].off
	tab := b[ix.secs[table].off : ix.secs[table].off+ix.secs[table].len]
	e := tab[i*entrySize:]
	binary.LittleEndian.PutUint64(e, off)
	binary.LittleEndian.PutUint32(e[8:], uint32(len(data)))
	prefix := ""
	if table == secTerms {
		prefix = termOf(t, ix, i)
	}
	binary.LittleEndian.PutUint32(e[12:], crc32Update(checksum([]byte(prefix)), data))
	ix.secs[table].crc = checksum(tab)
	copy(b, encodeHeader(ix.docs, ix.nTerms, ix.secs))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCraftedIndexFallsBackToTheScan(t *testing.T) {
	dir := makeIndex(t, map[string]string{
		"streets.txt": "Straße, Straße and STRASSE",
		"other.txt":   "nothing to see",
	})
	want := searchFolder(t, dir, "strasse")
	if len(want.Results) != 1 {
		t.Fatalf("the scan found %+v", want.Results)
	}
	path, good := buildMain(t, dir)
	ix := indexSections(t, path)
	var strasse int
	ix.termsContaining("strasse", func(term int, _ []byte, _ int) error { strasse = term; return nil })
	record := func(rel string) []byte {
		return appendString(appendString(appendString(nil, rel), rel), "Straße, Straße and STRASSE")
	}
	docNumber := 1 // streets.txt, after other.txt in walk order
	for _, tc := range []struct {
		name         string
		sec, table   int
		entry        int
		data         []byte
		logs         string
		linkInAnswer string
	}{
		{"a posting delta of 2^64-1", secPostings, secTerms, strasse,
			binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(nil, math.MaxUint64), 3), 0), "posting list", ""},
		{"a posting count beyond 32 bits", secPostings, secTerms, strasse,
			binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(nil, 1), math.MaxUint64), 0), "posting list", ""},
		{"a path to another host", secDocs, secDocTab, docNumber, record("//evil.example/x.txt"), "document 1", "//evil.example"},
		{"an absolute path", secDocs, secDocTab, docNumber, record("/etc/passwd"), "document 1", "/etc/passwd"},
		{"a path up the tree", secDocs, secDocTab, docNumber, record("../secret.txt"), "document 1", "../secret"},
		{"a path with a backslash", secDocs, secDocTab, docNumber, record(`..\secret.txt`), "document 1", "secret"},
		{"a path with a NUL", secDocs, secDocTab, docNumber, record("streets.txt\x00.txt"), "document 1", "%00"},
		{"a path that is no document", secDocs, secDocTab, docNumber, record("cgigate.conf"), "document 1", "cgigate.conf"},
	} {
		t.Run(tc.name+", checksums and all, is logged and the documents are scanned", func(t *testing.T) {
			if err := os.WriteFile(path, good, 0o644); err != nil {
				t.Fatal(err)
			}
			craftIndex(t, path, tc.sec, tc.table, tc.entry, tc.data)
			a := searchFolder(t, dir, "strasse")
			if a.err != nil {
				t.Fatal(a.err)
			}
			r := a
			if !reflect.DeepEqual(r.Results, want.Results) || !strings.Contains(strings.Join(r.Warnings, "\n"), "search index unusable") {
				t.Errorf("results %+v warnings %q; want %+v", r.Results, r.Warnings, want.Results)
			}
			if body := fmt.Sprint(a.Results, a.Warnings); tc.linkInAnswer != "" && strings.Contains(body, tc.linkInAnswer) {
				t.Errorf("the answer holds %q:\n%s", tc.linkInAnswer, body)
			}
			if !strings.Contains(a.log, "corrupt index file") || !strings.Contains(a.log, tc.logs) {
				t.Errorf("stderr %q; want %q", a.log, tc.logs)
			}
		})
	}
}

func TestIndexDirThroughASymlink(t *testing.T) {
	dir := makeIndex(t, map[string]string{"a.txt": "alpha", "sub/b.html": "<title>Beta</title><p>alpha beta</p>", `back\slash.txt`: "alpha"})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	check := func(scanned bool) func(t *testing.T) {
		return func(t *testing.T) {
			got, want := searchFolder(t, link, "alpha"), searchFolder(t, dir, "alpha")
			if got.err != nil || len(want.Results) != 2 || !reflect.DeepEqual(got.Results, want.Results) || got.log != want.log {
				t.Errorf("through the link %v %+v %q; the folder %+v %q", got.err, got.Results, got.log, want.Results, want.log)
			}
			// The scan logs the document it skips; the index answers alone.
			if skipped := strings.Contains(got.log, `back\slash.txt skipped: a backslash`); skipped != scanned || len(got.Warnings) != 0 {
				t.Errorf("log %q warnings %q", got.log, got.Warnings)
			}
		}
	}
	t.Run("without an index, the scan through the link finds what it finds in the folder", check(true))
	st, err := (&Folder{Dir: link}).Build()
	if err != nil {
		t.Fatalf("building through %s: %v", link, err)
	}
	if !strings.Contains(strings.Join(st.Warnings, "\n"), `back\slash.txt skipped: a backslash`) {
		t.Errorf("the build reports %q", st.Warnings)
	}
	if _, err := os.Stat(filepath.Join(dir, IndexName)); err != nil {
		t.Fatalf("the index built through the link: %v", err)
	}
	t.Run("with an index built through the link, the same answers both ways, the index used", check(false))
}

// TestChangedLookupTablesNeverReadOutside changes bytes of the tables a
// query only searches and checks no CRC of (the dictionary's offsets,
// the grams and their lists), at random: a query answers what the scan
// answers, or less (a lost candidate), or falls back to the scan; it
// never fails, panics, reads outside the file, nor shows a document the
// scan does not.
func TestChangedLookupTablesNeverReadOutside(t *testing.T) {
	dir := makeIndex(t, map[string]string{
		"streets.txt": "Straße, Straße and STRASSE",
		"street.html": "<title>Die Straße</title><p>Eine Straßenbahn in Berlin</p>",
		"japan.txt":   "活版印刷の会社です　印刷",
		"other.txt":   "nothing to see",
	})
	queries := []string{"strasse", "ß", "印刷", "活版印刷", "bahn", "nothing"}
	want := map[string]map[string]bool{}
	for _, q := range queries {
		want[q] = map[string]bool{}
		for _, r := range searchFolder(t, dir, q).Results {
			want[q][r.URL] = true
		}
	}
	path, good := buildMain(t, dir)
	ix := indexSections(t, path)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sec := range []int{secDictIdx, secGrams, secGramLists, secBigrams, secBigramLists} {
		s := ix.secs[sec]
		t.Run(fmt.Sprintf("section %d changed at random", sec), func(t *testing.T) {
			fallbacks, fewer := 0, 0
			for range 150 {
				b := slices.Clone(good)
				for range 1 + rng.IntN(3) {
					at := s.off + rng.Uint64N(s.len)
					if rng.IntN(2) == 0 {
						b[at] ^= byte(1 << rng.IntN(8))
					} else {
						b[at] = byte(rng.Uint32())
					}
				}
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				for _, q := range queries {
					a := searchFolder(t, dir, q)
					if a.err != nil {
						t.Fatalf("query %q: %v", q, a.err)
					}
					for _, r := range a.Results {
						if !want[q][r.URL] {
							t.Fatalf("query %q shows %s, which the scan does not", q, r.URL)
						}
					}
					if len(a.Warnings) > 0 {
						fallbacks++
					} else if len(a.Results) < len(want[q]) {
						fewer++
					}
				}
			}
			t.Logf("%d answers from the scan, %d with fewer results", fallbacks, fewer)
		})
	}
	os.WriteFile(path, good, 0o644)
}

func TestASegmentCutShortUnderItsMappingIsCorrupt(t *testing.T) {
	// Pages of text: the tables a query reads lie past the first page.
	dir := makeIndex(t, map[string]string{"streets.txt": "Straße, Straße and STRASSE", "other.txt": strings.Repeat("nothing to see ", 2000)})
	path, _ := buildMain(t, dir)
	segs, err := openSegments(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	defer closeSegments(segs)
	if err := os.Truncate(path, int64(headerSize)); err != nil { // the mapping's pages past it now fault
		t.Fatal(err)
	}
	_, _, err = searchMapped(segs, queryOf(t, "strasse"), 0, DefaultPageSize)
	if !errors.Is(err, errCorruptIndex) || !strings.Contains(err.Error(), "a fault reading a segment") {
		t.Errorf("%v; want a corrupt index, not a crash", err)
	}
}
