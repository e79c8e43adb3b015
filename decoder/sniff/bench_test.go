package sniff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

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

// cpuTime is the CPU time the process has used, in user and system mode,
// its garbage collector's included.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sniffLoop sniffs each of strings in turn, one per op, and reports beside
// ns/op the CPU time per op: on a machine shared with other work the wall
// clock also counts the waits for a core, and cpu-ns/op is the steadier
// figure.
func sniffLoop(b *testing.B, strings [][]byte) {
	d := New()
	b.ReportAllocs()
	start := cpuTime(b)
	for i := 0; b.Loop(); i++ {
		d.Sniff([][]byte{strings[i%len(strings)]}, Evidence{})
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkSniff sniffs one short legacy string per op.
func BenchmarkSniff(b *testing.B) {
	sniffLoop(b, shortRows(b))
}

// BenchmarkSniffUTF8 sniffs one short UTF-8 string per op.
func BenchmarkSniffUTF8(b *testing.B) {
	var rows [][]byte
	for _, r := range loadCorpus(b) {
		if r.Bucket == "2-4" {
			rows = append(rows, []byte(r.Text))
		}
	}
	sniffLoop(b, rows)
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

// paragraphs are, for each charset of the corpus, its strings joined by
// spaces into one body of a few hundred bytes (about what a comment field
// or a paragraph-sized textarea sends), and the same texts in UTF-8.
func paragraphs(b testing.TB) (legacy, utf8 [][]byte) {
	rows := loadRows(b, corpusPath)
	byCharset := map[string][]byte{}
	texts := map[string][]byte{}
	var order []string
	for _, r := range rows {
		p, ok := byCharset[r.Charset]
		if !ok {
			order = append(order, r.Charset)
		} else {
			p = append(p, ' ')
			texts[r.Charset] = append(texts[r.Charset], ' ')
		}
		byCharset[r.Charset] = append(p, r.raw...)
		texts[r.Charset] = append(texts[r.Charset], r.Text...)
	}
	for _, cs := range order {
		legacy = append(legacy, byCharset[cs])
		utf8 = append(utf8, texts[cs])
	}
	return legacy, utf8
}

// BenchmarkSniffParagraph sniffs one paragraph-sized body per op, the
// charsets of the corpus in turn (enc=legacy), or their texts in UTF-8.
func BenchmarkSniffParagraph(b *testing.B) {
	legacy, utf8 := paragraphs(b)
	for _, enc := range []struct {
		name  string
		paras [][]byte
	}{{"legacy", legacy}, {"utf-8", utf8}} {
		b.Run("enc="+enc.name, func(b *testing.B) {
			n := 0
			for _, p := range enc.paras {
				n += len(p)
			}
			sniffLoop(b, enc.paras)
			b.ReportMetric(float64(n)/float64(len(enc.paras)), "bytes/string")
		})
	}
}
