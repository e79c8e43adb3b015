package sniff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// shortRows are the corpus strings of 2 to 4 characters.
func shortRows(b *testing.B) [][]byte {
	var out [][]byte
	for _, r := range loadCorpus(b) {
		if r.Bucket == "2-4" {
			out = append(out, r.raw)
		}
	}
	return out
}

// BenchmarkSniff sniffs one short legacy string per op.
func BenchmarkSniff(b *testing.B) {
	rows := shortRows(b)
	d := New()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		d.Sniff([][]byte{rows[i%len(rows)]}, Evidence{})
	}
}

// BenchmarkSniffUTF8 sniffs one short UTF-8 string per op.
func BenchmarkSniffUTF8(b *testing.B) {
	var rows [][]byte
	for _, r := range loadCorpus(b) {
		if r.Bucket == "2-4" {
			rows = append(rows, []byte(r.Text))
		}
	}
	d := New()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d.Sniff([][]byte{rows[i%len(rows)]}, Evidence{})
	}
}

// BenchmarkUchardet is the peer: one uchardet process (Debian package
// uchardet) reads every short corpus string per op, so that its start-up
// is shared; ns/string is the figure to compare with BenchmarkSniff's
// ns/op. Skipped where uchardet is not installed.
func BenchmarkUchardet(b *testing.B) {
	path, err := exec.LookPath("uchardet")
	if err != nil {
		missing.SkipOrFail(b, "uchardet is not installed (apt-get install uchardet)")
	}
	rows := shortRows(b)
	dir := b.TempDir()
	files := make([]string, len(rows))
	for i, r := range rows {
		files[i] = filepath.Join(dir, strconv.Itoa(i))
		if err := os.WriteFile(files[i], r, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if err := exec.Command(path, files...).Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/string")
}
