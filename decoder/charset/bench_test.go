package charset

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/htmlindex"
)

var benchCharsets = []string{"shift_jis", "euc-jp", "iso-2022-jp", "euc-kr", "gbk", "gb18030", "big5", "windows-1252"}

// benchText is about n bytes of c's real text (the Python codecs corpus)
// between form-like ASCII, and its first character-aligned ~10 bytes.
func benchText(b testing.TB, c *Charset, n int) (long, short []byte) {
	var texts [][]byte
	for _, tc := range pythonCases(b) {
		if tc.Label == c.Name() {
			raw, _ := hex.DecodeString(tc.Hex)
			texts = append(texts, raw)
		}
	}
	if len(texts) == 0 {
		b.Fatalf("no text for %s", c.Name())
	}
	for i := 0; len(long) < n; i++ {
		long = append(long, "&q="...)
		long = append(long, texts[i%len(texts)]...)
	}
	s, _ := c.Decode(texts[0])
	for _, r := range s {
		e, _ := c.Encode(string(r), false)
		if len(short)+len(e) > 10 {
			break
		}
		short = append(short, e...)
	}
	return long, short
}

// BenchmarkDecode compares Decode with x/text's own decoder on the same
// bytes:
//
//	go test -run x -bench Decode -count 6 ./decoder/charset > bench.txt
//	benchstat -col /impl bench.txt
//
// shows, per charset and input, the time of each and their ratio.
func BenchmarkDecode(b *testing.B) {
	for _, name := range benchCharsets {
		b.Run(name, func(b *testing.B) { benchDecode(b, name) })
	}
}

func benchDecode(b *testing.B, name string) {
	{
		c := MustLookup(name)
		xt, err := htmlindex.Get(name)
		if err != nil {
			b.Fatal(err)
		}
		long, short := benchText(b, c, 1<<20)
		if _, bad := c.Decode(long); len(bad) > 0 {
			b.Fatalf("%s: benchmark text has errors: %v", name, bad[:1])
		}
		mostly := append([]byte(nil), long...)
		for i := 1 << 16; i < len(mostly); i += 1 << 16 {
			mostly[i] = 0xFF // one bad byte every 64 KB
		}
		for _, in := range []struct {
			name string
			src  []byte
		}{{"valid-1MB", long}, {"mostly-valid-1MB", mostly}, {"short-10B", short}} {
			b.Run(in.name+"/impl=cgigate", func(b *testing.B) {
				b.SetBytes(int64(len(in.src)))
				for b.Loop() {
					c.Decode(in.src)
				}
			})
			b.Run(in.name+"/impl=xtext", func(b *testing.B) {
				b.SetBytes(int64(len(in.src)))
				for b.Loop() {
					xt.NewDecoder().Bytes(in.src)
				}
			})
		}
	}
}

// BenchmarkDecodeVsXText runs Decode and x/text's decoder alternately on
// the same bytes and reports the ratio of their best times ("x-xtext"),
// which a loaded machine disturbs far less than the time of either:
//
//	go test -run x -bench DecodeVsXText -benchtime 25x ./decoder/charset
func BenchmarkDecodeVsXText(b *testing.B) {
	for _, name := range benchCharsets {
		b.Run(name, func(b *testing.B) {
			c := MustLookup(name)
			xt, err := htmlindex.Get(name)
			if err != nil {
				b.Fatal(err)
			}
			long, short := benchText(b, c, 1<<20)
			mostly := append([]byte(nil), long...)
			for i := 1 << 16; i < len(mostly); i += 1 << 16 {
				mostly[i] = 0xFF
			}
			for _, in := range []struct {
				name string
				src  []byte
				reps int
			}{{"valid-1MB", long, 1}, {"mostly-valid-1MB", mostly, 1}, {"short-10B", short, 1000}} {
				b.Run(in.name, func(b *testing.B) {
					best := [2]time.Duration{math.MaxInt64, math.MaxInt64}
					for b.Loop() {
						t0 := time.Now()
						for range in.reps {
							c.Decode(in.src)
						}
						t1 := time.Now()
						for range in.reps {
							xt.NewDecoder().Bytes(in.src)
						}
						best[0], best[1] = min(best[0], t1.Sub(t0)), min(best[1], time.Since(t1))
					}
					b.ReportMetric(float64(best[0])/float64(best[1]), "x-xtext")
				})
			}
		})
	}
}

// BenchmarkLookup compares Lookup, which searches the generated table
// (lookup_labels.go), with the algorithm it replaced, htmlindex then
// ianaindex (oldLookup), on WHATWG labels, spellings Lookup trims or folds,
// an IANA-only label and an unknown one:
//
//	go test -run x -bench Lookup -count 6 ./decoder/charset > bench.txt
//	benchstat -col /impl bench.txt
func BenchmarkLookup(b *testing.B) {
	for _, label := range []string{"euc-jp", "Shift_JIS", " windows-1252\n", "csIBM866", "x-no-such-charset"} {
		b.Run(strings.TrimSpace(label)+"/impl=cgigate", func(b *testing.B) {
			for b.Loop() {
				Lookup(label)
			}
		})
		b.Run(strings.TrimSpace(label)+"/impl=htmlindex", func(b *testing.B) {
			oldLookup(label) // its test of ASCII, once per encoding, outside the timing
			for b.Loop() {
				oldLookup(label)
			}
		})
	}
}
