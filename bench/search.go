package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The words a generated index is searched for: Needle is in about 1% of
// the documents, Hay in about 10%, so "needle hay" matches about 0.1% and
// the search reads every document and ranks a few.
const (
	Needle = "needle"
	Hay    = "haystack"
)

// GenerateIndex writes n documents for ISINDEX searches into dir, in
// subfolders of 100: half .txt, half .html with a <title>, each 150 to 300
// words of a made-up vocabulary drawn with a Zipf law (as words are in
// text), some with Needle or Hay, a few in Japanese so that NFKC folding
// has work. The same seed writes the same documents. Nothing generated is
// committed: BENCHMARKS.md says how to regenerate it.
func GenerateIndex(dir string, n int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	vocab := vocabulary(rng, 3000)
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	jp := []string{"ｲﾝｻﾂ", "インサツ", "印刷", "検索", "ケンサク"}
	for i := 0; i < n; i++ {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return err
			}
		}
		words := make([]string, 150+rng.IntN(151))
		for j := range words {
			words[j] = vocab[zipf.Uint64()]
		}
		if rng.IntN(100) == 0 {
			words[rng.IntN(len(words))] = Needle
		}
		if rng.IntN(10) == 0 {
			words[rng.IntN(len(words))] = Hay
		}
		if rng.IntN(20) == 0 {
			words[rng.IntN(len(words))] = jp[rng.IntN(len(jp))]
		}
		body := strings.Join(words, " ")
		var data, name string
		if i%2 == 0 {
			name = fmt.Sprintf("doc%05d.txt", i)
			data = body + "\n"
		} else {
			name = fmt.Sprintf("doc%05d.html", i)
			title := strings.Join(words[:4], " ")
			data = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html.EscapeString(title) +
				"</title></head>\n<body><p>" + html.EscapeString(body) + "</p></body></html>\n"
		}
		if err := os.WriteFile(filepath.Join(sub, name), []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// vocabulary makes n distinct lower-case words of two to four syllables.
func vocabulary(rng *rand.Rand, n int) []string {
	cons := "bcdfghjklmnprstvwz"
	vows := "aeiou"
	seen := map[string]bool{Needle: true, Hay: true}
	var out []string
	for len(out) < n {
		var b strings.Builder
		for s := 2 + rng.IntN(3); s > 0; s-- {
			b.WriteByte(cons[rng.IntN(len(cons))])
			b.WriteByte(vows[rng.IntN(len(vows))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Search is the cost of one ISINDEX search by the gateway as a CGI child.
type Search struct {
	Docs    int
	Runs    int
	Median  time.Duration // exec to exit
	Results int           // documents the search returned (at most 50)
}

// SearchTime runs the gateway runs times (after one unrecorded run that
// warms the page cache) as Apache runs it for an ISINDEX query of words
// (RFC 3875 section 4.4: the words in QUERY_STRING joined by '+', and as
// argv), with CGIGATE_INDEX_DIR=dir, JSON out. When ctx ends, the run
// under way is killed and ctx's error returned.
func SearchTime(ctx context.Context, gateway, dir string, docs int, words []string, runs int) (Search, error) {
	env := append(CGIEnv(Gateway, strings.Join(words, "+"), "application/json"), "CGIGATE_INDEX_DIR="+dir)
	s := Search{Docs: docs, Runs: runs}
	var times []float64
	for i := -1; i < runs; i++ {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		cmd := command(ctx, gateway, words...)
		cmd.Env = env
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		t0 := time.Now()
		err := cmd.Run()
		d := time.Since(t0)
		if err != nil {
			return s, fmt.Errorf("bench: search %q: %v\n%s", words, err, stderr.Bytes())
		}
		if i < 0 {
			n, err := countResults(out.Bytes())
			if err != nil {
				return s, err
			}
			s.Results = n
			continue
		}
		times = append(times, float64(d))
	}
	s.Median = time.Duration(Median(times))
	return s, nil
}

func countResults(cgiOut []byte) (int, error) {
	_, body, ok := bytes.Cut(cgiOut, []byte("\n\n"))
	if !ok {
		_, body, ok = bytes.Cut(cgiOut, []byte("\r\n\r\n"))
	}
	var v struct {
		Results []json.RawMessage `json:"results"`
	}
	if !ok || json.Unmarshal(body, &v) != nil {
		return 0, fmt.Errorf("bench: search answer is not a CGI JSON response: %.300q", cgiOut)
	}
	return len(v.Results), nil
}
