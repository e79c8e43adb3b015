package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cgigate/cgigate/bench"
)

// benchDocs is the folder size the search is measured at (BENCHMARKS.md).
const benchDocs = 10000

var benchCorpus = struct {
	once sync.Once
	dir  string
	err  error
}{}

// searchCorpus generates benchDocs documents (bench.GenerateIndex, seed
// 1) once per test binary and builds their index; it is removed at exit
// by TestMain's temporary folder, being under bin's folder.
func searchCorpus(b *testing.B) string {
	benchCorpus.once.Do(func() {
		benchCorpus.dir = filepath.Join(filepath.Dir(bin), "corpus")
		if benchCorpus.err = bench.GenerateIndex(benchCorpus.dir, benchDocs, 1); benchCorpus.err == nil {
			_, benchCorpus.err = buildIndex(benchCorpus.dir)
		}
	})
	if benchCorpus.err != nil {
		b.Fatal(benchCorpus.err)
	}
	return benchCorpus.dir
}

// benchQueries: the generator's query (about 0.1% of the documents), a
// common word (about 10%: the ranking reads many posting lists), width
// folding, and a one-letter piece that is in nearly every term.
var benchQueries = []struct {
	name, query string   // QUERY_STRING
	words       []string // as decoded
}{
	{"needle-haystack", bench.Needle + "+" + bench.Hay, []string{bench.Needle, bench.Hay}},
	{"haystack", bench.Hay, []string{bench.Hay}},
	{"halfwidth-katakana", "%EF%BD%B2%EF%BE%9D%EF%BD%BB%EF%BE%82", []string{"ｲﾝｻﾂ"}},
	{"a", "a", []string{"a"}},
}

// BenchmarkSearch searches the generated documents in process, with the
// index and by the scan in the same loop, and reports each one's time
// and the ratio. The scan takes seconds: run it a few times.
//
//	go test -run '^$' -bench 'Search$' -benchtime 5x ./cmd/cgigate
func BenchmarkSearch(b *testing.B) {
	dir := searchCorpus(b)
	path := filepath.Join(dir, indexName)
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			needles := needlesOf(b, q.words...)
			var ix, sc time.Duration
			for b.Loop() {
				t0 := time.Now()
				if _, _, err := searchIndex(path, needles); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, _, err := scan(dir, needles); err != nil {
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
	path := filepath.Join(dir, indexName)
	aside := filepath.Join(filepath.Dir(bin), "index-aside")
	for _, q := range benchQueries[:2] {
		b.Run(q.name, func(b *testing.B) {
			env := append(bench.CGIEnv(bench.Gateway, q.query, "application/json"), "CGIGATE_INDEX_DIR="+dir)
			run := func() time.Duration {
				cmd := exec.Command(bin, q.words...)
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
