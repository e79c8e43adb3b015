package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/cgigate/cgigate/decoder"
)

// needlesOf is what queryNeedles makes of words under the default limit.
func needlesOf(t testing.TB, words ...string) []needle {
	t.Helper()
	n, err := queryNeedles(words, decoder.DefaultMaxKeywords)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// makeIndex writes docs (path -> content) into a new folder.
func makeIndex(t *testing.T, docs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range docs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSearch(t *testing.T) {
	dir := makeIndex(t, map[string]string{
		"katakana.txt":            "印刷の手順: インサツ を 開始 します。",
		"street.html":             "<html><head><title>Die Straße</title></head><body><p>Eine Straße in Berlin. Printing here.</p></body></html>",
		"streets.txt":             "Straße, Straße, Straße and more straße, STRASSE.",
		"scripted.html":           "<title>Only script</title><script>var s = 'Berlin STRASSE';</script><style>.Berlin{}</style><p>nothing</p>",
		"sub/nested.html":         "<title>Nested &amp; deep</title><p>Berlin printing press</p>",
		"notes.md":                "Straße in a file of another kind",
		"bad.txt":                 "Stra\xdfe in Latin-1",
		"javascript:alert(1).txt": "a Berlin document with a hostile file name",
		"markup.txt":              "<script>alert(1)</script> Ünïcode Markup",
	})
	t.Run("without an index, the documents are scanned", func(t *testing.T) { searchCases(t, dir) })
	buildWithBinary(t, dir)
	t.Run("with an index from cgigate -index, the same answers", func(t *testing.T) { searchCases(t, dir) })
}

// buildWithBinary runs "cgigate -index dir".
func buildWithBinary(t *testing.T, dir string) {
	t.Helper()
	out, err := execCommand("-index", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("cgigate -index: %v\n%s", err, out)
	}
}

// searchCases are the search's answers for the documents of TestSearch.
func searchCases(t *testing.T, dir string) {
	for _, tc := range []struct {
		name  string
		query string
		want  []string // URLs, in rank order
	}{
		{"half-width katakana finds full-width katakana", "%EF%BD%B2%EF%BE%9D%EF%BD%BB%EF%BE%82", []string{"katakana.txt"}},
		{"STRASSE finds Straße by full case folding, ranked by occurrences", "STRASSE", []string{"streets.txt", "street.html"}},
		{"every word must match", "STRASSE+printing", []string{"street.html"}},
		{"text in script and style does not count", "berlin", []string{"./javascript:alert%281%29.txt", "street.html", "sub/nested.html"}},
		{"a word nobody has finds nothing", "zzyzx", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := get(t, tc.query, "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json")
			if a.stderr != "" {
				t.Errorf("stderr %q", a.stderr)
			}
			r := jsonResult(t, a.body)
			var urls []string
			for _, res := range r.Results {
				urls = append(urls, res.URL)
			}
			if !equal(urls, tc.want) {
				t.Errorf("results %q; want %q (%+v)", urls, tc.want, r.Results)
			}
		})
	}
	t.Run("an HTML title is the result's title, a text file's path otherwise", func(t *testing.T) {
		r := jsonResult(t, get(t, "berlin", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json").body)
		titles := map[string]string{}
		for _, res := range r.Results {
			titles[res.URL] = res.Title
		}
		if titles["street.html"] != "Die Straße" || titles["sub/nested.html"] != "Nested & deep" || titles["./javascript:alert%281%29.txt"] != "javascript:alert(1).txt" {
			t.Errorf("titles %q", titles)
		}
	})
	t.Run("a snippet is around the match and escaped in HTML", func(t *testing.T) {
		a := get(t, "markup", "CGIGATE_INDEX_DIR", dir)
		if strings.Contains(a.body, "<script>alert(1)") || !strings.Contains(a.body, "&lt;script&gt;alert(1)&lt;/script&gt; Ünïcode Markup") {
			t.Errorf("body:\n%s", a.body)
		}
		r := jsonResult(t, get(t, "markup", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json").body)
		if len(r.Results) != 1 || r.Results[0].Snippet != "<script>alert(1)</script> Ünïcode Markup" {
			t.Errorf("results %+v", r.Results)
		}
	})
	t.Run("a document that is not UTF-8 is skipped with a warning", func(t *testing.T) {
		r := jsonResult(t, get(t, "latin-1", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json").body)
		if len(r.Results) != 0 || !strings.Contains(strings.Join(r.Warnings, "\n"), "bad.txt skipped: not valid UTF-8") {
			t.Errorf("results %+v warnings %q", r.Results, r.Warnings)
		}
	})
	t.Run("a hostile file name is never a javascript: link", func(t *testing.T) {
		a := get(t, "hostile", "CGIGATE_INDEX_DIR", dir)
		if strings.Contains(a.body, `href="javascript:`) || !strings.Contains(a.body, `href="./javascript:alert%281%29.txt"`) {
			t.Errorf("body:\n%s", a.body)
		}
	})
	t.Run("a missing index folder is a 500 with the reason on stderr", func(t *testing.T) {
		missing := filepath.Join(dir, "no-such-folder")
		a := get(t, "berlin", "CGIGATE_INDEX_DIR", missing, acceptJSON, "application/json")
		msg, _ := jsonError(t, a.body)
		if a.status != 500 || strings.Contains(msg, "no-such-folder") || !strings.Contains(a.stderr, "no-such-folder") {
			t.Errorf("status %d message %q stderr %q", a.status, msg, a.stderr)
		}
	})
}

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
		// size, which the folded text holds twice (built, then a string)
		// besides its growth; the map adds at most one span (12 bytes,
		// with room to double) per rune.
		{"a text of U+FDFA, whose folding is 11 times as long", "\ufdfa", 32},
		{"a text of ﬁ, each folding to two letters", "ﬁ", 8},
		{"a Japanese text, each rune its own folding, maps as one run", "印刷の手順", 4},
		{"an ASCII text maps as one run", "Hello World. ", 4},
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
