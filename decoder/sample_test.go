package decoder

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/sniff"
)

// recorder is a Sniffer that keeps what it was given.
type recorder struct{ samples [][]byte }

func (r *recorder) Sniff(samples [][]byte, _ sniff.Evidence) (sniff.Guess, bool) {
	r.samples = samples
	return sniff.Guess{Charset: "windows-1252", Confidence: 1}, true
}

func highBytes(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(0x80 + rng.IntN(0x80))
	}
	return string(b)
}

func TestSniffingReadsABoundedSampleSpreadOverTheFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const mb = 1 << 20
	tests := []struct {
		name   string
		values []string
		want   []int // bytes of each value the sniffer sees, at least
	}{
		{"a megabyte of high bytes is cut to the budget", []string{highBytes(rng, mb)}, []int{sniffBudget - 16}},
		{"ten long fields share the budget evenly", slices.Repeat([]string{highBytes(rng, mb)}, 10),
			slices.Repeat([]int{sniffBudget/10 - 16}, 10)},
		{"a short field beside a long one is sniffed whole", []string{"caf\xe9", highBytes(rng, mb), "na\xefve"},
			[]int{4, sniffBudget - 10 - 16, 5}},
		{"high bytes after a megabyte of ASCII are in the sample", []string{strings.Repeat("a", mb) + " \xc7\xd1\xb1\xb9"},
			[]int{4}},
		{"a form that fits is sniffed whole", []string{"\x88\xf3\x8d\xfc", strings.Repeat("\xb0\xf5", 1000)}, []int{4, 2000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			r := &Raw{Kind: Form}
			for _, v := range tt.values {
				r.Pairs = append(r.Pairs, RawPair{Name: "f", Value: v})
			}
			if _, err := New(Options{Sniffer: rec}).ChooseCharset(r, Evidence{}); err != nil {
				t.Fatal(err)
			}
			if len(rec.samples) != len(tt.values) {
				t.Fatalf("%d samples for %d values", len(rec.samples), len(tt.values))
			}
			total := 0
			for i, s := range rec.samples {
				total += len(s)
				if len(s) < tt.want[i] || !strings.Contains(tt.values[i], string(s)) || !NeedsCharset(string(s)) {
					t.Errorf("sample %d is %d bytes (want at least %d) of a %d-byte value, or not a part of it that needs a charset",
						i, len(s), tt.want[i], len(tt.values[i]))
				}
			}
			if total > sniffBudget {
				t.Errorf("the sniffer read %d bytes; want at most %d", total, sniffBudget)
			}
		})
	}
}

// TestSampleWindowsEndWhereACharacterEnds cuts text in each charset the
// sniffer weighs at many sizes: the window must decode in that charset
// without an error, or the charset would lose for a cut the whole text
// does not have.
func TestSampleWindowsEndWhereACharacterEnds(t *testing.T) {
	texts := map[string]string{
		"cjk":      "東京の寿司は美味しい。印刷する日本語の文章、한국어 텍스트는 제외",
		"hangul":   "한국어텍스트를자르는시험입니다한국어텍스트",
		"spaced":   "Привет мир, как дела? 12345 東京 2024年",
		"hanzi":    "繁體字和简体字都在这里测试一下长度",
		"accented": "ééééàààçççôôôüüüñññ",
	}
	charsets := []string{"utf-8", "shift_jis", "euc-jp", "iso-2022-jp", "euc-kr", "gbk", "gb18030", "big5", "windows-1251"}
	for _, name := range charsets {
		c := charset.MustLookup(name)
		for key, text := range texts {
			enc, err := c.Encode(strings.Repeat(text, 40), false)
			if err != nil {
				continue // the charset cannot write this text
			}
			s := "lead-in words " + string(enc)
			t.Run(key+" in "+name+" is cut between characters", func(t *testing.T) {
				for n := 8; n < 600; n += 7 {
					w := window(s, n)
					if len(w) > n || len(w) < n/2-4 {
						t.Fatalf("window(%d) is %d bytes", n, len(w))
					}
					if _, bad := c.Decode([]byte(w)); len(bad) > 0 {
						t.Fatalf("window(%d) = % X ends mid-character: invalid at %v", n, w[max(0, len(w)-8):], bad)
					}
				}
			})
		}
	}
}

// TestSamplingChangesNoGuess holds the sampled decision to the sniffer's
// own on the whole text, for long text in every language and charset of
// the sniffing corpus (testdata/sniff, written with Python's codecs), as
// one long field and as many.
func TestSamplingChangesNoGuess(t *testing.T) {
	type group struct{ lang, charset string }
	var order []group
	texts := map[group][]byte{}
	f, err := os.Open(filepath.Join("..", "testdata", "sniff", "corpus.jsonl"))
	if err != nil {
		t.Fatalf("the sniffing corpus is committed with the project: %v", err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var row struct{ Lang, Charset, Hex string }
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		raw, err := hex.DecodeString(row.Hex)
		if err != nil {
			t.Fatal(err)
		}
		g := group{row.Lang, row.Charset}
		if texts[g] == nil {
			order = append(order, g)
		}
		texts[g] = append(append(texts[g], raw...), ' ')
	}
	if len(order) < 10 {
		t.Fatalf("%d groups in the corpus", len(order))
	}
	for _, g := range order {
		long := strings.Repeat(string(texts[g]), sniffBudget/len(texts[g])+2)
		words := strings.SplitAfter(long, " ")
		var pieces []string // sixteen fields, split between words
		for i := range 16 {
			pieces = append(pieces, strings.Join(words[i*len(words)/16:(i+1)*len(words)/16], ""))
		}
		for _, form := range []struct {
			name   string
			values []string
		}{{"one field", []string{long}}, {"many fields", pieces}} {
			t.Run(g.lang+" in "+g.charset+" as "+form.name, func(t *testing.T) {
				r := &Raw{Kind: Form}
				var all [][]byte
				for _, v := range form.values {
					r.Pairs = append(r.Pairs, RawPair{Name: "f", Value: v})
					if NeedsCharset(v) {
						all = append(all, []byte(v))
					}
				}
				whole, wholeOK := sniff.Detector{}.Sniff(all, sniff.Evidence{})
				ch, err := New(Options{}).ChooseCharset(r, Evidence{})
				if err != nil {
					t.Fatal(err)
				}
				want := "utf-8"
				if wholeOK {
					want = whole.Charset
				}
				if got := ch.Charset.Name(); got != want && got != g.charset {
					t.Errorf("the sample chose %s, the whole text %s (%v), and the text is %s", got, want, wholeOK, g.charset)
				} else if got != want {
					t.Logf("the sample chose %s, the text's own charset, where the whole text chose %s", got, want)
				}
			})
		}
	}
}
