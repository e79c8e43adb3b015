package search

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/testdocs"
)

// benchDocs is the folder size the search is measured at (BENCHMARKS.md).
const benchDocs = 10000

var benchCorpus testdocs.Generated

// searchCorpus is benchDocs generated documents and their index, made
// once per test binary and removed at exit with TestMain's folder.
func searchCorpus(b *testing.B) string {
	return benchCorpus.Get(b, filepath.Join(testTemp, "corpus"), benchDocs, func(dir string) error {
		_, err := (&Folder{Dir: dir}).Build()
		return err
	})
}

// BenchmarkSearch searches the generated documents in process, with the
// index and by the scan in the same loop, and reports each one's time
// and the ratio. The scan takes seconds: run it a few times.
//
//	go test -run '^$' -bench 'Search$' -benchtime 5x ./search
func BenchmarkSearch(b *testing.B) {
	dir := searchCorpus(b)
	path := filepath.Join(dir, IndexName)
	for _, q := range testdocs.Queries {
		b.Run(q.Name, func(b *testing.B) {
			needles := queryOf(b, q.Words...)
			var ix, sc time.Duration
			for b.Loop() {
				t0 := time.Now()
				if _, err := indexAll(path, needles); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, _, err := scanAll(dir, needles); err != nil {
					b.Fatal(err)
				}
				ix, sc = ix+t1.Sub(t0), sc+time.Since(t1)
			}
			b.ReportMetric(float64(ix.Microseconds())/float64(b.N), "index-µs/op")
			b.ReportMetric(float64(sc.Milliseconds())/float64(b.N), "scan-ms/op")
			b.ReportMetric(float64(sc)/float64(ix), "x-index-faster")
		})
	}
}
