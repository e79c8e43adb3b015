package search

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/width"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/internal/testdocs"
)

// trickyDocs are documents whose folding moves text around: NFKC that
// makes white space (U+00A0, U+00A8), full case folding that grows (ß,
// ﬁ), half-width katakana, combining marks, markup, empty texts.
var trickyDocs = map[string]string{
	"tricky/strasse.txt":   "Die Straße\u00a0und STRASSE, ﬁle ｲﾝｻﾂ. Ende",
	"tricky/cafe.html":     "<title>Caf&eacute;&nbsp;Ｍｅｎｕ</title><p>Kaffee\u00a0Tee ¨ test Cafe\u0301 café</p>",
	"tricky/empty.txt":     "",
	"tricky/title.html":    "<title>Nur Titel Straße</title>",
	"tricky/spaces.txt":    "a  b\t\tc\n\nd   needle   haystack\u3000印刷",
	"tricky/latin1.txt":    "Stra\xdfe",
	"tricky/notes.md":      "needle haystack",
	"tricky/a:b.txt":       "colon needle",
	"tricky/sub/deep.html": "<title>Deep</title><script>needle</script><p>NEEDLE haystack HAYSTACK</p>",
}

// corpus is a generated folder plus trickyDocs.
func corpus(t testing.TB, n int, seed uint64) string {
	t.Helper()
	dir := t.TempDir()
	if err := bench.GenerateIndex(dir, n, seed); err != nil {
		t.Fatal(err)
	}
	testdocs.Write(t, dir, trickyDocs)
	return dir
}

// randomQuery draws one to three keywords from the documents' own words:
// whole words, pieces of words cut at any rune, changed in case or width,
// two words joined by a no-break space (one keyword of two words once
// folded), a repeat, or white space alone.
func randomQuery(rng *rand.Rand, words []string) []string {
	q := make([]string, 1+rng.IntN(3))
	for i := range q {
		w := words[rng.IntN(len(words))]
		switch rng.IntN(8) {
		case 0: // a piece
			rs := []rune(w)
			a := rng.IntN(len(rs))
			b := a + 1 + rng.IntN(len(rs)-a)
			w = string(rs[a:b])
		case 1:
			w = strings.ToUpper(w)
		case 2:
			w = width.Widen.String(w)
		case 3:
			w = width.Narrow.String(w)
		case 4:
			w += "\u00a0" + words[rng.IntN(len(words))]
		case 5:
			w = []string{"\u00a0", "¨", "ß", "SS", "ﬁ", "ｲﾝｻﾂ", "印刷", "e\u0301", ".", ",", "\ufdfa"}[rng.IntN(11)]
		case 6: // a repeat, weighted
			w = q[0]
		}
		q[i] = w
	}
	return q
}

// corpusWords are the white-space separated words of the documents, as
// written (not folded).
func corpusWords(t testing.TB, dir string) []string {
	t.Helper()
	seen := map[string]bool{}
	var words []string
	if _, err := testFolder.eachDoc(dir, func(rel, title, text string) error {
		for _, w := range strings.Fields(title + " " + text) {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return words
}

func TestIndexAnswersAsTheScan(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprintf("a generated corpus, seed %d, gives the same results and warnings both ways", seed), func(t *testing.T) {
			dir := corpus(t, 120, seed)
			st, err := (&Folder{Dir: dir}).Build()
			if err != nil {
				t.Fatal(err)
			}
			if st.Docs != 120+len(trickyDocs)-1 { // not the .md
				t.Errorf("indexed %d documents", st.Docs)
			}
			words := corpusWords(t, dir)
			rng := rand.New(rand.NewPCG(seed, 7))
			found := 0
			for range 100 {
				q := randomQuery(rng, words)
				needles := queryOf(t, q...)
				if needles.empty() {
					continue
				}
				want, skips, err := scanAll(dir, needles)
				if err != nil {
					t.Fatal(err)
				}
				got, err := indexAll(st.Path, needles)
				if err != nil {
					t.Fatalf("query %q: %v", q, err)
				}
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(st.Warnings, skips) {
					t.Fatalf("query %q:\nindex %+v %q\nscan  %+v %q", q, got, st.Warnings, want, skips)
				}
				if len(want) > 0 {
					found++
				}
			}
			if found < 35 { // the property says little if nothing matches
				t.Errorf("only %d of 100 queries found something", found)
			}
		})
	}
	t.Run("the generator's own query, needle haystack, gives the same ranking", func(t *testing.T) {
		dir := corpus(t, 1000, 9)
		st, err := (&Folder{Dir: dir}).Build()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range [][]string{{bench.Needle, bench.Hay}, {bench.Hay}, {"ｲﾝｻﾂ"}, {"a"}} {
			needles := queryOf(t, q...)
			want, _, _ := scanAll(dir, needles)
			got, err := indexAll(st.Path, needles)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("query %q: %v\nindex %+v\nscan  %+v", q, err, got, want)
			}
			if len(want) == 0 {
				t.Errorf("query %q found nothing", q)
			}
		}
	})
}

// mainSegment is the path of the main segment of dir's index.
func mainSegment(t *testing.T, dir string) string {
	t.Helper()
	m, err := readManifest(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, m.segs[0].name)
}

// buildMain builds dir's index and returns its main segment's path and
// bytes.
func buildMain(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	if _, err := (&Folder{Dir: dir}).Build(); err != nil {
		t.Fatal(err)
	}
	path := mainSegment(t, dir)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// indexSections opens the segment at path and returns where its sections
// are.
func indexSections(t *testing.T, path string) *index {
	t.Helper()
	ix, err := openIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	// A copy, not the mapping: the tests rewrite the file in place.
	data := slices.Clone(ix.data)
	ix.close()
	ix.data = data
	return ix
}

// termOf is term i of the segment ix (from indexSections), read from its
// file.
func termOf(t *testing.T, ix *index, i int) string {
	t.Helper()
	ix, err := openIndex(ix.path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.close()
	term, err := ix.term(i)
	if err != nil {
		t.Fatal(err)
	}
	return string(term)
}

// recordOffset is where in the file the record of the document at rel
// starts, and its length.
func recordOffset(t *testing.T, ix *index, rel string) (int64, int) {
	t.Helper()
	f, err := os.Open(ix.path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for d := range ix.docs {
		e := make([]byte, entrySize)
		f.ReadAt(e, int64(ix.secs[secDocTab].off)+int64(d)*entrySize)
		off, n := binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint32(e[8:])
		b := make([]byte, n)
		f.ReadAt(b, int64(ix.secs[secDocs].off+off))
		r := reader{b: b}
		if r.string() == rel {
			return int64(ix.secs[secDocs].off + off), int(n)
		}
	}
	t.Fatalf("no record for %s", rel)
	return 0, 0
}

func flipByte(t *testing.T, path string, at int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[at] ^= 0x20
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBrokenIndexFallsBackToTheScan(t *testing.T) {
	dir := makeIndex(t, map[string]string{
		"streets.txt": "Straße, Straße and STRASSE",
		"street.html": "<title>Die Straße</title><p>Eine Straße in Berlin</p>",
		"other.txt":   "nothing to see",
	})
	manifest := filepath.Join(dir, IndexName)
	query := "strasse"
	want := searchFolder(t, dir, query)
	if len(want.Results) != 2 {
		t.Fatalf("the scan found %+v", want.Results)
	}
	path, good := buildMain(t, dir)
	goodManifest, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	ix := indexSections(t, path)
	var strasse int
	ix.termsContaining("strasse", func(term int, _ []byte, _ int) error { strasse = term; return nil })
	e := good[ix.secs[secTerms].off+uint64(strasse)*entrySize:]
	postings := int64(ix.secs[secPostings].off + binary.LittleEndian.Uint64(e))
	inDict := int64(ix.secs[secDict].off + uint64(bytes.Index(good[ix.secs[secDict].off:], []byte("\nstrasse\n"))) + 1)
	rec, n := recordOffset(t, ix, "streets.txt")

	for _, tc := range []struct {
		name    string
		breakIt func(t *testing.T)
		logs    string // on stderr
		file    string // the file the log names; the segment when empty
	}{
		{"a flipped bit in the header", func(t *testing.T) { flipByte(t, path, 12) }, "corrupt index file: header checksum", ""},
		{"another version's magic", func(t *testing.T) { flipByte(t, path, 7) }, "not a cgigate index of this version", ""},
		// The term no longer holds the word: the document it gave is shown
		// with a score its text does not give.
		{"a flipped bit in a term the query finds", func(t *testing.T) { flipByte(t, path, inDict+3) }, "does not match its postings", ""},
		{"a flipped bit in the end of a term the query finds", func(t *testing.T) { flipByte(t, path, inDict+7) }, "dictionary term", ""},
		{"a flipped bit in the posting list the query reads", func(t *testing.T) { flipByte(t, path, postings) }, "entry", ""},
		{"a flipped bit in the text of a document shown", func(t *testing.T) { flipByte(t, path, rec+int64(n)-3) }, "entry", ""},
		{"a flipped bit in the document table entry of a document shown", func(t *testing.T) {
			flipByte(t, path, int64(ix.secs[secDocTab].off)+2*entrySize+13) // streets.txt's CRC, the third in walk order
		}, "entry 2 checksum", ""},
		{"a file cut short", func(t *testing.T) { os.WriteFile(path, good[:len(good)/2], 0o644) }, "corrupt index file", ""},
		{"an empty file", func(t *testing.T) { os.WriteFile(path, nil, 0o644) }, "corrupt index file: header", ""},
		{"a file of something else", func(t *testing.T) { os.WriteFile(path, bytes.Repeat([]byte("<html>"), 100), 0o644) }, "not a cgigate index", ""},
		{"a folder where the manifest should be (unreadable)", func(t *testing.T) {
			os.Remove(manifest)
			os.Mkdir(manifest, 0o755)
			t.Cleanup(func() { os.Remove(manifest) })
		}, "is a directory", manifest},
		{"a flipped bit in the manifest", func(t *testing.T) { flipByte(t, manifest, 9) }, "manifest checksum", manifest},
		{"a manifest cut short", func(t *testing.T) { os.WriteFile(manifest, goodManifest[:len(goodManifest)-1], 0o644) }, "manifest checksum", manifest},
		{"an empty manifest", func(t *testing.T) { os.WriteFile(manifest, nil, 0o644) }, "not a cgigate index manifest", manifest},
		{"a manifest of another version", func(t *testing.T) { flipByte(t, manifest, 7) }, "not a cgigate index manifest of this version", manifest},
		{"a manifest naming a segment that is not there", func(t *testing.T) { os.Remove(path) }, "segment the manifest names is gone", path},
		{"a manifest naming a file outside the index", func(t *testing.T) {
			b := bytes.Replace(goodManifest, []byte(filepath.Base(path)), []byte("../../etc/passwd."), 1)
			b = binary.LittleEndian.AppendUint32(b[:len(b)-4], checksum(b[:len(b)-4]))
			os.WriteFile(manifest, b, 0o644)
		}, "manifest segment", manifest},
	} {
		t.Run(tc.name+" is logged and the documents are scanned, with a warning", func(t *testing.T) {
			if err := os.WriteFile(path, good, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(manifest, goodManifest, 0o644); err != nil {
				t.Fatal(err)
			}
			file := cmp.Or(tc.file, path)
			tc.breakIt(t)
			a := searchFolder(t, dir, query)
			if a.err != nil {
				t.Fatal(a.err)
			}
			r := a
			if !reflect.DeepEqual(r.Results, want.Results) {
				t.Errorf("results %+v; want %+v", r.Results, want.Results)
			}
			if !strings.Contains(strings.Join(r.Warnings, "\n"), "search index unusable") || strings.Contains(strings.Join(a.Warnings, "\n"), dir) {
				t.Errorf("warnings %q (the answer must not name server paths)", r.Warnings)
			}
			if !strings.Contains(a.log, tc.logs) || !strings.Contains(a.log, file) {
				t.Errorf("stderr %q; want %q and %s", a.log, tc.logs, file)
			}
		})
	}
	t.Run("an index the CGI's user may not read is logged and the documents are scanned", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads a file of mode 000; the folder case above covers an unreadable index")
		}
		os.WriteFile(path, good, 0o644)
		os.WriteFile(manifest, goodManifest, 0o644)
		os.Chmod(manifest, 0)
		a := searchFolder(t, dir, query)
		os.Chmod(manifest, 0o644)
		if r := a; a.err != nil || !reflect.DeepEqual(r.Results, want.Results) || !strings.Contains(a.log, "permission denied") {
			t.Errorf("error %v results %+v log %q", a.err, r.Results, a.log)
		}
	})
	t.Run("no index is no warning: the documents are scanned", func(t *testing.T) {
		os.Remove(manifest)
		a := searchFolder(t, dir, query)
		if r := a; len(r.Warnings) != 0 || a.log != "" || !reflect.DeepEqual(r.Results, want.Results) {
			t.Errorf("results %+v warnings %q stderr %q", r.Results, r.Warnings, a.log)
		}
	})
}

func TestKeywordsThatFoldToWhiteSpace(t *testing.T) {
	dir := makeIndex(t, trickyDocs)
	st, err := (&Folder{Dir: dir}).Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		why     string
		keyword string
		want    []string
	}{
		{"NO-BREAK SPACE is a space under NFKC, so the keyword is two words", "STRASSE\u00a0und", []string{"tricky/strasse.txt"}},
		{"the words of one keyword need not be side by side", "kaffee\u00a0test", []string{"tricky/cafe.html"}},
		{"IDEOGRAPHIC SPACE separates words", "印刷\u3000NEEDLE", []string{"tricky/spaces.txt"}},
		{"DIAERESIS folds to a space and a combining mark, which is a word", "e¨", []string{"tricky/cafe.html"}},
		{"a word that no document has finds nothing, whatever the other word", "kaffee\u00a0zzyzx", nil},
	} {
		t.Run(tc.why, func(t *testing.T) {
			needles := queryOf(t, tc.keyword)
			if len(needles.needles) < 2 {
				t.Fatalf("fold(%q) gives the needles %+v", tc.keyword, needles)
			}
			got, err := indexAll(st.Path, needles)
			if err != nil {
				t.Fatal(err)
			}
			var urls []string
			for _, r := range got {
				urls = append(urls, r.rel)
			}
			if !equal(urls, tc.want) {
				t.Errorf("index found %q; want %q", urls, tc.want)
			}
			if scanned, _, _ := scanAll(dir, needles); !reflect.DeepEqual(got, scanned) {
				t.Errorf("index %+v; scan %+v", got, scanned)
			}
		})
	}
}
