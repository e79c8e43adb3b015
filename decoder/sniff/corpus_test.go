package sniff

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/cgigate/cgigate/decoder/charset"
)

// The corpus is written by testdata/sniff/gen.py with Python's codecs; the
// uchardet answers by testdata/sniff/uchardet.sh. Paths are relative to
// this package.
var (
	corpusPath   = filepath.Join("..", "..", "testdata", "sniff", "corpus.jsonl")
	uchardetPath = filepath.Join("..", "..", "testdata", "sniff", "uchardet.tsv")
)

func loadRows(t testing.TB, path string) []corpusRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the corpus is committed with the package: %v", err)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r corpusRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.raw, err = hex.DecodeString(r.Hex); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

type corpusRow struct {
	Lang, Text, Charset, Hex, Bucket string
	raw                              []byte
	uchardet                         string
	uchardetOK                       bool
}

func loadCorpus(t testing.TB) []corpusRow {
	t.Helper()
	rows := loadRows(t, corpusPath)
	u, err := os.ReadFile(uchardetPath)
	if err != nil {
		t.Fatalf("uchardet's answers are committed with the corpus: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(u)), "\n")
	if len(lines) != len(rows) {
		t.Fatalf("uchardet.tsv has %d lines for %d corpus rows: run testdata/sniff/uchardet.sh", len(lines), len(rows))
	}
	for i, line := range lines {
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[0] != rows[i].Hex {
			t.Fatalf("uchardet.tsv line %d does not match the corpus: run testdata/sniff/uchardet.sh", i+1)
		}
		rows[i].uchardet, rows[i].uchardetOK = f[1], f[2] == "1"
	}
	return rows
}

// decodesExactly reports whether name decodes raw into text: a guess naming
// another charset that decodes the bytes identically is as good.
func decodesExactly(name string, raw []byte, text string) bool {
	c, err := charset.Lookup(name)
	if err != nil {
		return false
	}
	got, bad := c.Decode(raw)
	return len(bad) == 0 && norm.NFC.String(got) == text
}

type tally struct{ ok, n int }

func (t tally) rate() float64 { return float64(t.ok) / float64(max(t.n, 1)) }

// acceptLanguage is the Accept-Language a client of each corpus language
// would send.
var acceptLanguage = map[string]string{
	"zh-Hans": "zh-CN", "zh-Hant": "zh-TW",
}

func init() {
	for _, l := range []string{"ja", "ko", "ru", "uk", "bg", "el", "cs", "sk", "pl", "hu", "hr", "tr", "he", "ar", "vi", "th", "fr", "de", "es", "pt", "sv", "lt", "lv", "et"} {
		acceptLanguage[l] = l
	}
}

// confBins are the lower bounds of the confidence bins reported.
var confBins = [...]float64{0, 0.5, 0.8, 0.95}

var buckets = []string{"2-4", "5-12", "13-40"}

func TestSniffDecodesTheHeldOutCorpusBetterThanUchardet(t *testing.T) {
	ours, theirs := evaluate(t, loadCorpus(t))
	if r := ours["all"].rate(); r < 0.85 {
		t.Errorf("exact decode rate %.1f%% is below 85%%", 100*r)
	}
	for _, b := range buckets {
		if ours[b].rate() <= theirs[b].rate() {
			t.Errorf("bucket %s: sniff decodes %.1f%% exactly, uchardet %.1f%%", b, 100*ours[b].rate(), 100*theirs[b].rate())
		}
	}
}

var devSet = flag.Bool("sniff.dev", false, "measure the tuning set testdata/sniff/dev.jsonl")

// TestSniffDecodesTheTuningSet is the tuning loop's measure, run on demand:
// go test -run TuningSet -sniff.dev -v
func TestSniffDecodesTheTuningSet(t *testing.T) {
	if !*devSet {
		t.Skip("tuning set: run with -sniff.dev")
	}
	ours, _ := evaluate(t, loadRows(t, filepath.Join("..", "..", "testdata", "sniff", "dev.jsonl")))
	if r := ours["all"].rate(); r < 0.85 {
		t.Errorf("exact decode rate %.1f%% is below 85%%", 100*r)
	}
}

func evaluate(t *testing.T, rows []corpusRow) (ours, theirs map[string]*tally) {
	ours, theirs = map[string]*tally{}, map[string]*tally{}
	byLang := map[string]*tally{}
	for _, b := range append(buckets, "all") {
		ours[b], theirs[b] = &tally{}, &tally{}
	}
	var (
		misses             []string
		told               tally
		toldBy             = map[string]*tally{}
		reliability        [len(confBins)]tally
		confOK, confMissed float64
	)
	for _, r := range rows {
		g, _ := New().Sniff([][]byte{r.raw}, Evidence{})
		ok := decodesExactly(g.Charset, r.raw, r.Text)
		bin := 0
		for bin < len(confBins)-1 && g.Confidence >= confBins[bin+1] {
			bin++
		}
		reliability[bin].n++
		if ok {
			reliability[bin].ok++
			confOK += g.Confidence
		} else {
			confMissed += g.Confidence
		}
		// The same string from a client asking for its language.
		gt, _ := New().Sniff([][]byte{r.raw}, Evidence{AcceptLanguage: acceptLanguage[r.Lang] + ",en;q=0.5"})
		told.n++
		if toldBy[r.Bucket] == nil {
			toldBy[r.Bucket] = &tally{}
		}
		toldBy[r.Bucket].n++
		if decodesExactly(gt.Charset, r.raw, r.Text) {
			told.ok++
			toldBy[r.Bucket].ok++
		}
		if byLang[r.Lang] == nil {
			byLang[r.Lang] = &tally{}
		}
		for _, k := range []string{r.Bucket, "all"} {
			ours[k].n++
			theirs[k].n++
			if ok {
				ours[k].ok++
			}
			if r.uchardetOK {
				theirs[k].ok++
			}
		}
		byLang[r.Lang].n++
		if ok {
			byLang[r.Lang].ok++
		} else {
			misses = append(misses, fmt.Sprintf("%s %q %s -> %s (%.2f)", r.Lang, r.Text, r.Charset, g.Charset, g.Confidence))
		}
	}
	nOK := ours["all"].ok
	t.Logf("mean confidence: %.2f when right, %.2f when wrong", confOK/float64(max(nOK, 1)), confMissed/float64(max(len(rows)-nOK, 1)))
	for i, b := range reliability {
		if b.n > 0 {
			t.Logf("confidence >= %.2f: %4d guesses, %5.1f%% right", confBins[i], b.n, 100*b.rate())
		}
	}
	t.Logf("with Accept-Language of the string's language: %.1f%%", 100*told.rate())
	if told.rate() < ours["all"].rate() {
		t.Errorf("Accept-Language made the guesses worse: %.1f%% < %.1f%%", 100*told.rate(), 100*ours["all"].rate())
	}
	if nOK < len(rows) && confOK/float64(max(nOK, 1)) <= confMissed/float64(len(rows)-nOK) {
		t.Errorf("confidence does not tell right guesses from wrong ones")
	}
	toldBy["all"] = &told
	t.Logf("%-6s %6s %8s %8s %14s", "bucket", "rows", "sniff", "uchardet", "sniff+lang")
	for _, b := range append(buckets, "all") {
		t.Logf("%-6s %6d %7.1f%% %7.1f%% %13.1f%%", b, ours[b].n, 100*ours[b].rate(), 100*theirs[b].rate(), 100*toldBy[b].rate())
	}
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		t.Logf("  %-8s %3d/%3d", l, byLang[l].ok, byLang[l].n)
	}
	if testing.Verbose() {
		for _, m := range misses {
			t.Log("  miss:", m)
		}
	}
	return ours, theirs
}

func TestSniffKeepsUTF8(t *testing.T) {
	seen := map[string]bool{}
	var n, ok int
	for _, r := range loadCorpus(t) {
		if seen[r.Text] {
			continue
		}
		seen[r.Text] = true
		n++
		g, _ := New().Sniff([][]byte{[]byte(r.Text)}, Evidence{})
		if decodesExactly(g.Charset, []byte(r.Text), r.Text) {
			ok++
		} else {
			t.Logf("%s %q as UTF-8 -> %s (%.2f)", r.Lang, r.Text, g.Charset, g.Confidence)
		}
	}
	t.Logf("UTF-8: %d/%d decoded exactly", ok, n)
	if float64(ok) < 0.99*float64(n) {
		t.Errorf("only %d of %d UTF-8 strings decoded exactly", ok, n)
	}
}
