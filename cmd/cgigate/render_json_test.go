package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// writeJSON streams what json.Encoder with SetIndent("", "  ") writes;
// the encoder itself is the truth it is compared with.
func TestJSONIsWrittenAsEncodingJSONWritesIt(t *testing.T) {
	odd := []result{
		{}, // every list nil
		{Kind: "\x00\b\f\x1f\u2029\xff\xe2\x80", Results: []searchResult{
			{Score: 1e-7}, {Score: 1e21, Highlights: [][2]int{}}, {Score: -0.5, Highlights: [][2]int{{0, 1}, {2, 40}}},
			{Score: 123456789.125}, {Score: 5e-324}, {Score: 1.7976931348623157e308}, {Score: 999999999999999999999},
		}},
	}
	for n, res := range append(randomResults(200), odd...) {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
		if err := writeJSON(&got, res); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("case %d differs:\ngot  %s\nwant %s", n, got.String(), want.String())
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// randomResults makes results of every shape the renderings meet: empty
// lists and full ones, hostile and non-ASCII strings.
func randomResults(n int) []result {
	rng := rand.New(rand.NewPCG(7, 7))
	words := []string{"", "a", "印刷", "<script>&\"'", "\u2028", "\x7f", "café", strings.Repeat("x", 300), "javascript:alert(1)", "</table>"}
	pick := func() string { return words[rng.IntN(len(words))] }
	out := make([]result, n)
	for i := range out {
		res := result{Kind: pick(), Method: "GET", Charset: "utf-8", CharsetSource: "default",
			Keywords: []string{}, Fields: []fieldJSON{}, Files: []fileJSON{}, Results: []searchResult{}, Warnings: []string{},
			searched: rng.IntN(2) == 0}
		for range rng.IntN(3) {
			res.Keywords = append(res.Keywords, pick())
		}
		for range rng.IntN(4) {
			res.Fields = append(res.Fields, fieldJSON{pick(), pick(), "query"})
		}
		for range rng.IntN(2) {
			res.Files = append(res.Files, fileJSON{pick(), pick(), "text/plain", rng.Int64N(1 << 40), "ab"})
		}
		for range rng.IntN(2) * btoi(res.searched) {
			snip := pick()
			r := searchResult{Title: pick(), URL: "/d/" + pick(), Snippet: snip, Score: rng.Float64() * 3, Highlights: [][2]int{}}
			if n := utf8.RuneCountInString(snip); n > 0 {
				r.Highlights = append(r.Highlights, [2]int{rng.IntN(n), n})
			}
			res.Results = append(res.Results, r)
		}
		if res.searched {
			res.Total, res.Page, res.Pages = len(res.Results)+rng.IntN(30), 1+rng.IntN(3), rng.IntN(4)
			res.nav = &searchNav{Field: pick(), Query: pick(), Linked: rng.IntN(2) == 0, Start: 1, Prev: "?q=" + pick(), Next: pick()}
		}
		for range rng.IntN(3) {
			res.Warnings = append(res.Warnings, pick())
		}
		if rng.IntN(2) == 0 {
			res.Form, res.Redirect = pick(), pick()
		}
		out[i] = res
	}
	return out
}

// A large form's JSON is written a field at a time, each value marshalled
// once into one reused buffer: the bytes allocated stay near one field's
// size, where json.MarshalIndent per field allocated each field's
// encoding three times over (marshalled, indented, grown): 8.0 MB for
// these 2.6 MB.
func TestJSONOfALargeFormAllocatesAboutOneField(t *testing.T) {
	res := result{Keywords: []string{}, Fields: []fieldJSON{}, Files: []fileJSON{}, Results: []searchResult{}, Warnings: []string{}}
	value := strings.Repeat("crème brûlée ", 1000) // 15 kB
	for range 160 {
		res.Fields = append(res.Fields, fieldJSON{"f", value, "body"})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := writeJSON(io.Discard, res); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n, limit := after.TotalAlloc-before.TotalAlloc, uint64(8*len(value)); n > limit {
		t.Errorf("%d bytes allocated for %d fields of %d bytes, want at most %d", n, len(res.Fields), len(value), limit)
	}
}
