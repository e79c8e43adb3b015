package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/internal/testdocs"
	"github.com/cgigate/cgigate/search"
)

// benchDocs is the folder size the search is measured at (BENCHMARKS.md).
const benchDocs = 10000

var benchCorpus testdocs.Generated

// searchCorpus is benchDocs generated documents and their index, made
// once per test binary and removed at exit with TestMain's folder.
func searchCorpus(b *testing.B) string {
	return benchCorpus.Get(b, filepath.Join(filepath.Dir(bin), "corpus"), benchDocs, func(dir string) error {
		_, err := (&search.Folder{Dir: dir}).Build()
		return err
	})
}

// BenchmarkSearchCGI runs the built gateway as Apache runs it (the
// environment set by hand, the words in QUERY_STRING and argv, JSON out)
// over the generated documents, runs times each way, interleaved: with
// the index, and without it (renamed away for the run). It reports the
// median time of a whole request each way and the ratio.
//
//	go test -run '^$' -bench SearchCGI -benchtime 1x ./cmd/cgigate
func BenchmarkSearchCGI(b *testing.B) {
	const runs = 20
	dir := searchCorpus(b)
	path := filepath.Join(dir, search.IndexName)
	aside := filepath.Join(filepath.Dir(bin), "index-aside")
	for _, q := range testdocs.Queries[:2] {
		b.Run(q.Name, func(b *testing.B) {
			env := append(bench.CGIEnv(bench.Gateway, q.Query, "application/json"), "CGIGATE_INDEX_DIR="+dir)
			run := func() time.Duration {
				cmd := exec.Command(bin, q.Words...)
				cmd.Env = env
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				t0 := time.Now()
				err := cmd.Run()
				d := time.Since(t0)
				if err != nil || !bytes.HasPrefix(out.Bytes(), []byte("Status: 200")) || errb.Len() > 0 {
					b.Fatalf("%v %.200q %s", err, out.Bytes(), errb.Bytes())
				}
				return d
			}
			for b.Loop() {
				var ix, sc []float64
				run() // warm the page cache
				for range runs {
					ix = append(ix, float64(run()))
					if err := os.Rename(path, aside); err != nil {
						b.Fatal(err)
					}
					sc = append(sc, float64(run()))
					if err := os.Rename(aside, path); err != nil {
						b.Fatal(err)
					}
				}
				mi, ms := bench.Median(ix), bench.Median(sc)
				b.ReportMetric(mi/1e6, "index-ms/req")
				b.ReportMetric(ms/1e6, "scan-ms/req")
				b.ReportMetric(ms/mi, "x-index-faster")
			}
		})
	}
}
