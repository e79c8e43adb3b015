package search

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/internal/testdocs"
)

// queryOf is what ParseQuery makes of words under the default limit.
func queryOf(t testing.TB, words ...string) *Query {
	t.Helper()
	q, err := ParseQuery(words, decoder.DefaultMaxKeywords)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// indexAll is every result of the index at path for q.
func indexAll(path string, q *Query) ([]hit, error) {
	hits, _, err := searchIndex(path, q, 0, maxInt)
	return hits, err
}

// scanAll is every result of the scan of dir for q, and the documents
// it skipped.
func scanAll(dir string, q *Query) ([]hit, []string, error) {
	hits, _, skips, err := testFolder.scan(dir, q, 0, maxInt)
	return hits, skips, err
}

// makeIndex writes docs (path -> content) into a new folder.
func makeIndex(t *testing.T, docs map[string]string) string { return testdocs.Folder(t, docs) }

// built builds the index of dir and gives its manifest's path.
func built(t testing.TB, dir string) string {
	t.Helper()
	st, err := (&Folder{Dir: dir}).Build()
	if err != nil {
		t.Fatal(err)
	}
	return st.Path
}

// answersAsTheScan checks that the index at path answers q as the scan
// of dir does, hit for hit, and tells whether the scan found anything.
func answersAsTheScan(t testing.TB, dir, path string, q *Query) bool {
	t.Helper()
	want, _, err := scanAll(dir, q)
	if err != nil {
		t.Fatal(err)
	}
	got, err := indexAll(path, q)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%v\nindex %d %+v\nscan  %d %+v", err, len(got), got, len(want), want)
	}
	return len(want) > 0
}

// searched is what Folder.Search gave, and what it logged.
type searched struct {
	Results  []Result
	Warnings []string
	log      string
	err      error
}

// searchFolder searches dir for words as the gateway does.
func searchFolder(t testing.TB, dir string, words ...string) searched {
	t.Helper()
	var a searched
	f := &Folder{Dir: dir, Log: func(format string, args ...any) { a.log += fmt.Sprintf(format, args...) + "\n" }}
	q, err := ParseQuery(words, decoder.DefaultMaxKeywords)
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.Search(q, 1, 1000)
	if a.err = err; err == nil {
		a.Results, a.Warnings = p.Results, p.Warnings
	}
	return a
}

// testFolder is a Folder of the defaults, for the scan.
var testFolder = &Folder{}

func equal[T comparable](a, b []T) bool { return slices.Equal(a, b) }

func TestFold(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"ｲﾝｻﾂ", "インサツ"}, {"STRASSE", "straße"}, {"ｶﾞｲﾄﾞ", "ガイド"}, {"ＡＢＣ", "abc"}, {"ﬁle", "FILE"},
	} {
		t.Run(tc.a+" folds like "+tc.b, func(t *testing.T) {
			if fold(tc.a).text != fold(tc.b).text {
				t.Errorf("%q vs %q", fold(tc.a).text, fold(tc.b).text)
			}
		})
	}
	t.Run("a folded offset maps back to its original segment", func(t *testing.T) {
		s := "xßｶﾞy"
		f := fold(s)
		i := strings.Index(f.text, "y")
		if got := s[f.origOffset(i):]; got != "y" {
			t.Errorf("mapped to %q", got)
		}
	})
	t.Run("the folded text is x/text's NFKC then full case folding, and every offset maps back to where its text began", func(t *testing.T) {
		alphabet := []rune("aZ. \u00a0¨ßẞﬁＡｶﾞｲﾝKǅΣς\u0301\u0308e\u3000印İ\u0345")
		rng := rand.New(rand.NewPCG(5, 5))
		caser := cases.Fold()
		for range 2000 {
			rs := make([]rune, rng.IntN(12))
			for i := range rs {
				rs[i] = alphabet[rng.IntN(len(alphabet))]
			}
			s := string(rs)
			f := fold(s)
			if want := caser.String(norm.NFKC.String(s)); f.text != want {
				t.Fatalf("fold(%q) = %q; want %q", s, f.text, want)
			}
			for off := range len(f.text) {
				if !utf8.RuneStart(f.text[off]) {
					continue
				}
				o := f.origOffset(off)
				// An ASCII byte from an ASCII byte maps exactly; else the
				// offset may be the start of the segment ("Zﾞ" folds to
				// "z" and a combining mark) or of a character that folds
				// to several (ﬁ to "f" and "i").
				exact := f.text[off] < utf8.RuneSelf && o < len(s) && s[o] < utf8.RuneSelf
				if tail := fold(s[o:]).text; !strings.HasSuffix(tail, f.text[off:]) || (exact && tail != f.text[off:]) {
					t.Fatalf("fold(%q): offset %d maps to %d, whose fold %q does not end in %q", s, off, o, tail, f.text[off:])
				}
			}
		}
	})
}

// allocated is the bytes fn allocates on the heap.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

func TestFoldMemoryIsBoundedByTheText(t *testing.T) {
	const size = 1 << 20
	for _, tc := range []struct {
		name   string
		unit   string // repeated to size bytes
		factor uint64 // bytes allocated per byte of text, at most
	}{
		// U+FDFA folds to 18 letters and spaces, 33 bytes: 11 times its
		// size, which the folded text holds once (the string is the
		// buffer it was built in) besides its growth; the map adds at
		// most one span (12 bytes, with room to double) per rune. A text
		// that folds to its own length takes its length and an eighth.
		{"a text of U+FDFA, whose folding is 11 times as long", "\ufdfa", 20},
		{"a text of ﬁ, each folding to two letters", "ﬁ", 6},
		{"a Japanese text, each rune its own folding, maps as one run", "印刷の手順", 2},
		{"an ASCII text maps as one run", "Hello World. ", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := strings.Repeat(tc.unit, size/len(tc.unit))
			var f folded
			n := allocated(func() { f = fold(s) })
			if n > tc.factor*uint64(len(s)) {
				t.Errorf("fold allocated %d bytes for %d bytes of text; want at most %d times", n, len(s), tc.factor)
			}
			if runes := utf8.RuneCountInString(s); len(f.spans) > runes {
				t.Errorf("%d spans for %d runes", len(f.spans), runes)
			}
			t.Logf("%d bytes allocated, %d spans", n, len(f.spans))
		})
	}
}

// TestNoRuneFoldsBeyondMaxFoldGrowth holds maxFoldGrowth, which bounds
// what an index may say a document holds, to the folding of every rune:
// folding is context-free, so a text's is at most that many times as
// long.
func TestNoRuneFoldsBeyondMaxFoldGrowth(t *testing.T) {
	most, at := 0, rune(0)
	for r := range rune(utf8.MaxRune + 1) {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		if n := len(fold(s).text); n > most*len(s) {
			most, at = (n+len(s)-1)/len(s), r
		}
	}
	if most != maxFoldGrowth {
		t.Errorf("%U folds to %d times its length; maxFoldGrowth is %d", at, most, maxFoldGrowth)
	}
}

func TestAPagePastTheEndIsEmptyHoweverFar(t *testing.T) {
	dir := makeIndex(t, map[string]string{"a.txt": "printing", "b.txt": "printing press"})
	for _, indexed := range []bool{false, true} {
		if indexed {
			built(t, dir)
		}
		for _, page := range []int{3, 1<<61 + 1, 1<<62 + 1, maxInt} {
			t.Run(fmt.Sprintf("page %d of 8 results, index %v, is empty with the total", page, indexed), func(t *testing.T) {
				p, err := (&Folder{Dir: dir}).Search(queryOf(t, "printing"), page, 8)
				if err != nil || len(p.Results) != 0 || p.Total != 2 || p.Page != page {
					t.Errorf("%v: %d results, total %d, page %d", err, len(p.Results), p.Total, p.Page)
				}
			})
		}
	}
}
