// Package testdocs writes folders of documents for the search's tests, in
// the search package and through the gateway.
package testdocs

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cgigate/cgigate/bench"
)

// Write writes docs (slash-separated path -> content) under dir.
func Write(t testing.TB, dir string, docs map[string]string) {
	t.Helper()
	for name, content := range docs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Folder writes docs into a new temporary folder.
func Folder(t testing.TB, docs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, docs)
	return dir
}

// Generated is a folder of generated documents (bench.GenerateIndex,
// seed 1), made and indexed once per test binary: benchmarks share it.
type Generated struct {
	once sync.Once
	err  error
}

// Get generates n documents into dir and calls build on it, the first
// time it is called; it returns dir.
func (g *Generated) Get(tb testing.TB, dir string, n int, build func(dir string) error) string {
	g.once.Do(func() {
		if g.err = bench.GenerateIndex(dir, n, 1); g.err == nil {
			g.err = build(dir)
		}
	})
	if g.err != nil {
		tb.Fatal(g.err)
	}
	return dir
}

// Queries are the benchmarks' queries: the generator's query (about 0.1%
// of the documents), a common word (about 10%: the ranking reads many
// posting lists), width folding, and a one-letter piece that is in nearly
// every term.
var Queries = []struct {
	Name, Query string   // QUERY_STRING
	Words       []string // as decoded
}{
	{"needle-haystack", bench.Needle + "+" + bench.Hay, []string{bench.Needle, bench.Hay}},
	{"haystack", bench.Hay, []string{bench.Hay}},
	{"halfwidth-katakana", "%EF%BD%B2%EF%BE%9D%EF%BD%BB%EF%BE%82", []string{"ｲﾝｻﾂ"}},
	{"a", "a", []string{"a"}},
}
