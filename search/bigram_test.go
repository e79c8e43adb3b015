package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/bench"
)

// bigramDocs hold CJK words where counting them is easy to get wrong:
// repeated inside one run (overlapping matches), at a run's edge beside
// Latin letters or punctuation, across a term's end, in titles, with ー
// and 々, in half width, and in Hangul.
var bigramDocs = map[string]string{
	"a/repeat.txt":  "あああああ ああ　あああ",
	"a/print.txt":   "印刷印刷印刷 印刷A印刷、印刷 刷 印\u3000印刷ｲﾝｻﾂ",
	"a/title.html":  "<title>印刷の印刷 活版印刷</title><p>活版印刷と印刷所。印刷</p>",
	"a/marks.txt":   "ラーメン々々 時々々 佐々木さんラーメンー ーー",
	"a/tokyo.txt":   "東京タワー\n東京スカイツリーと東京駅、東京\u3000東京東京",
	"a/apart.txt":   "印 刷 活 版 印刷x刷",
	"a/width.txt":   "印刷ｻｰﾋﾞｽとｻｰﾋﾞｽ ＡＢＣ印刷ＤＥＦ",
	"a/korean.html": "<title>한국어 검색</title><p>한국어한국어 검색엔진 한국어</p>",
	"a/long.txt":    "活版印刷活版印刷活版印刷活版 活版印刷活",
	"b/english.txt": "printing and paper, nothing in Japanese",
	"b/mixed.txt":   "offset 印刷 printing サービスの印刷サービス",
}

func TestBigramWordsAnswerAsTheScan(t *testing.T) {
	dir := makeIndex(t, bigramDocs)
	path := built(t, dir)
	for _, tc := range []struct {
		name  string
		words []string
	}{
		{"a word of one repeated kana, inside runs of it", []string{"ああ"}},
		{"three of it", []string{"あああ"}},
		{"a word repeated inside one run", []string{"印刷"}},
		{"the word twice", []string{"印刷印刷"}},
		{"a pair across two repeats", []string{"刷印"}},
		{"a 2-code-point word in titles and text", []string{"東京"}},
		{"a 4-code-point word", []string{"活版印刷"}},
		{"a 5-code-point word", []string{"活版印刷活"}},
		{"an 8-code-point word, the longest counted from its bigrams", []string{"活版印刷活版印刷"}},
		{"a 9-code-point word, found through the terms", []string{"活版印刷活版印刷活"}},
		{"a word ending in ー", []string{"ラーメン"}},
		{"ー alone twice", []string{"ーー"}},
		{"々 repeated", []string{"々々"}},
		{"a word with 々", []string{"時々"}},
		{"a half-width word, folded", []string{"ｻｰﾋﾞｽ"}},
		{"a word in Hangul", []string{"한국어"}},
		{"Hangul twice in a run", []string{"한국어한국어"}},
		{"a word found nowhere", []string{"印版"}},
		{"two CJK words", []string{"印刷", "東京"}},
		{"a CJK word and an English one", []string{"印刷", "printing"}},
		{"a word given twice weighs twice", []string{"印刷", "印刷"}},
		{"OR between CJK words", []string{"活版", "OR", "東京"}},
		{"a CJK word excluded", []string{"印刷", "-活版"}},
		{"only a CJK word excluded beside another", []string{"-印刷", "東京"}},
		{"a word of the query also in a phrase", []string{"印刷", `"印刷 サービス"`}},
		{"a phrase of CJK words", []string{`"活版 印刷"`}},
		{"a word with CJK punctuation", []string{"刷、印"}},
		{"a word with a Latin letter", []string{"a印刷"}},
		{"one CJK code point", []string{"刷"}},
	} {
		t.Run(tc.name+" gives the scan's answer", func(t *testing.T) {
			answersAsTheScan(t, dir, path, queryOf(t, tc.words...))
		})
	}
}

// TestBigramCountIsStringsCount counts an all-CJK word in texts made of a
// few code points, runs broken by Latin letters, punctuation and white
// space, from the bigrams' numbers (docTerms.bigrams, bigramWords) and
// with strings.Count, the scan's count.
func TestBigramCountIsStringsCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []rune("ああ印刷ー々aA、 \u3000")
	draw := func(n int, cjk bool) string {
		var b strings.Builder
		for range n {
			r := alphabet[rng.IntN(len(alphabet))]
			for cjk && !isCJK(r) {
				r = alphabet[rng.IntN(len(alphabet))]
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	tried := 0
	for range 3000 {
		text, word := fold(draw(1+rng.IntN(30), false)).text, draw(2+rng.IntN(3), true)
		want := strings.Count(text, word)
		got := bigramCountOf(t, text, word)
		if got != want {
			t.Fatalf("%q in %q: %d from the bigrams, strings.Count %d", word, text, got, want)
		}
		if want > 0 {
			tried++
		}
	}
	if tried < 150 {
		t.Errorf("only %d texts held their word", tried)
	}
}

// bigramCountOf counts word in text as a segment of one document would:
// the bigrams docTerms counts, encoded as a bigram list is, then read by
// bigramWords.
func bigramCountOf(t *testing.T, text, word string) int {
	t.Helper()
	bw, err := bigramWordsOf(1, bigramEntries(text), word)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = mergeBigrams(bw, func(_, _, text, _ int) { n += text })
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// bigramWordsOf reads words from their bigrams in a segment of docs
// documents whose bigram lists section holds entries.
func bigramWordsOf(docs int, entries map[string][]byte, words ...string) (*bigramWords, error) {
	var needles []needle
	var keys [][]uint64
	for _, w := range words {
		needles = append(needles, needle{word: w, weight: 1})
		keys = append(keys, wordBigrams(w))
	}
	return newBigramWords(&index{docs: docs}, needles, keys, func(k uint64) ([]byte, error) {
		return entries[bigramMark+gramString(k)], nil
	})
}

// mergeBigrams reads the lists of bw by document as candidates does, and
// gives each document holding a word of bw with the word's counts.
func mergeBigrams(bw *bigramWords, fn func(doc, word, text, title int)) error {
	for _, l := range bw.lists {
		if err := bw.step(l); err != nil {
			return err
		}
	}
	for {
		d := -1
		for _, l := range bw.lists {
			if !l.done && (d < 0 || l.doc < d) {
				d = l.doc
			}
		}
		if d < 0 {
			return nil
		}
		var counted []int
		for _, l := range bw.lists {
			if !l.done && l.doc == d {
				counted = append(counted, l.take()...)
				if err := bw.step(l); err != nil {
					return err
				}
			}
		}
		for _, w := range counted {
			text, title, err := bw.count(w, d)
			if err != nil {
				return err
			}
			if text+title > 0 {
				fn(d, w, text, title)
			}
		}
	}
}

// TestRandomJapaneseWordsAnswerAsTheScan draws words, pairs of words, OR
// and exclusions from the Japanese of a generated site, each word a
// stretch of two to six code points of a CJK run, and compares the index
// with the scan.
func TestRandomJapaneseWordsAnswerAsTheScan(t *testing.T) {
	dir := t.TempDir()
	if _, err := bench.GenerateSite(dir, 200, 3); err != nil {
		t.Fatal(err)
	}
	path := built(t, dir)
	var runs [][]rune
	for _, w := range corpusWords(t, dir) {
		run := []rune{}
		for _, r := range w + " " {
			if isCJK(r) {
				run = append(run, r)
				continue
			}
			if len(run) >= 2 {
				runs = append(runs, run)
			}
			run = []rune{}
		}
	}
	if len(runs) < 100 {
		t.Fatalf("only %d CJK runs in the site", len(runs))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	word := func() string {
		run := runs[rng.IntN(len(runs))]
		n := min(len(run), 2+rng.IntN(5))
		at := rng.IntN(len(run) - n + 1)
		return string(run[at : at+n])
	}
	found := 0
	for i := range 150 {
		var q []string
		switch i % 5 {
		case 0, 1:
			q = []string{word()}
		case 2:
			q = []string{word(), word()}
		case 3:
			q = []string{word(), "OR", word()}
		case 4:
			q = []string{word(), "-" + word()}
		}
		if utf8.RuneCountInString(q[0]) < 2 {
			t.Fatalf("%q", q)
		}
		t.Run(fmt.Sprintf("%q gives the scan's answer", q), func(t *testing.T) {
			if answersAsTheScan(t, dir, path, queryOf(t, q...)) {
				found++
			}
		})
	}
	if found < 100 {
		t.Errorf("only %d of 150 queries found something", found)
	}
}

// TestBigramWordsOfOddTextsAnswerAsTheScan compares the index with the
// scan where a document's or a word's folding could set the bigrams
// apart from the folded text: compatibility ideographs and squared words
// that fold to other code points or to more of them, half-width kana
// that fold to fewer, variation selectors between ideographs, bytes that
// are not UTF-8 (a surrogate's among them), and a word folding to more
// than maxBigramRunes code points.
func TestBigramWordsOfOddTextsAnswerAsTheScan(t *testing.T) {
	dir := makeIndex(t, map[string]string{
		"compat.txt":    "\uF900\uF901 豈更 \uFA0E\uFA0F 豈\uF901豈更",
		"squared.txt":   "㍿の株式会社 ㍿㍿ ㌔キロ",
		"halfwidth.txt": "ｶﾞｷﾞｸﾞ ガギグ ｶﾞｷﾞ",
		"selector.txt":  "印\uFE00刷 印\U000E0100刷 印刷\uFE0F印刷 葛\U000E0100城",
		"invalid.txt":   "印刷\xed\xa0\x80印刷 印\xff刷 \xe5\x8d印刷 印刷\xe5",
		"title.html":    "<title>㍿ 印刷\uFE00印刷</title><p>ｶﾞｷﾞ 株式会社</p>",
	})
	path := built(t, dir)
	found := 0
	for _, words := range [][]string{
		{"豈更"}, {"\uF900\uF901"}, {"\uFA0E\uFA0F"}, {"更豈"},
		{"㍿"}, {"株式会社"}, {"㍿㍿"}, {"㍿㍿㍿"}, {"式会"}, {"キロ"}, {"㌔"},
		{"ｶﾞｷﾞ"}, {"ガギ"}, {"ｷﾞｸﾞ"},
		{"印刷"}, {"印\uFE00刷"}, {"刷印"}, {"葛城"},
		{"刷\uFE0F印"}, {"㍿", "株式会社"}, {"ガギ", "-ｷﾞｸﾞ"},
	} {
		t.Run(fmt.Sprintf("%q gives the scan's answer", words), func(t *testing.T) {
			if answersAsTheScan(t, dir, path, queryOf(t, words...)) {
				found++
			}
		})
	}
	if found < 18 {
		t.Errorf("only %d queries found something", found)
	}
}

// TestNoCodePointBelowHangulJamoIsCJK holds docTerms.bigrams' shortcut
// (a code point below U+1100 is not looked up) to isCJK.
func TestNoCodePointBelowHangulJamoIsCJK(t *testing.T) {
	for r := rune(0); r < 0x1100; r++ {
		if isCJK(r) {
			t.Fatalf("%U is CJK", r)
		}
	}
}

// bigramEntries are the entries of the bigram lists section a build
// writes for the bigrams of texts (one a document, in the text), by the
// bigram's key in the runs.
func bigramEntries(texts ...string) map[string][]byte {
	postings, nums := map[string][]indexPosting{}, map[string][]byte{}
	for d, text := range texts {
		c := docTerms{at: map[string]int{}}
		c.count(fold(text).text, "")
		for key, j := range c.at {
			if isBigramKey(key) {
				postings[key] = append(postings[key], indexPosting{doc: uint32(d), text: c.terms[j].text})
				nums[key] = append(nums[key], c.terms[j].textPos...)
			}
		}
	}
	entries := map[string][]byte{}
	for key, ps := range postings {
		list := encodeList(nil, ps, 0)
		entries[key] = append(append(binary.AppendUvarint(nil, uint64(len(list))), list...), nums[key]...)
	}
	return entries
}

// FuzzBigramLists reads a word's two bigram lists as a segment could
// hold them, torn or changed (their CRCs checked and found right): every
// answer is documents in rising order inside the segment, each counted
// no more than its numbers allow, or errCorruptIndex; never a panic, a
// loop, or memory beyond the bytes of the lists.
func FuzzBigramLists(f *testing.F) {
	word := "印刷印刷" // bigrams 印刷, 刷印, 印刷: one list read for two
	e := bigramEntries("印刷印刷印刷", "刷印 印刷", "印刷印刷 x印刷印刷", "活版印刷印刷")
	a, b := e[bigramMark+"印刷"], e[bigramMark+"刷印"]
	f.Add(uint16(4), a, b)
	f.Add(uint16(2), a, b)
	f.Add(uint16(4), a[:len(a)-1], b)
	f.Add(uint16(4), []byte{3, 0, 1, 0, 0}, []byte{3, 0, 1, 0, 1})
	f.Add(uint16(1), []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, b)
	f.Fuzz(func(t *testing.T, docs uint16, a, b []byte) {
		bw, err := bigramWordsOf(int(docs), map[string][]byte{bigramMark + "印刷": a, bigramMark + "刷印": b}, word)
		if err == nil {
			prev, calls := -1, 0
			err = mergeBigrams(bw, func(doc, _, text, title int) {
				if calls++; calls > len(a)+len(b) {
					t.Fatalf("%d documents from %d bytes", calls, len(a)+len(b))
				}
				if doc <= prev || doc >= int(docs) || text+title > len(a) {
					t.Fatalf("document %d after %d of %d, counts %d %d from %d bytes", doc, prev, docs, text, title, len(a))
				}
				for _, l := range bw.lists {
					if cap(l.textAt)+cap(l.titleAt) > 2*(len(a)+len(b)) {
						t.Fatalf("%d numbers decoded from %d bytes", cap(l.textAt)+cap(l.titleAt), len(a)+len(b))
					}
				}
				prev = doc
			})
		}
		if err != nil && !errors.Is(err, errCorruptIndex) {
			t.Fatal(err)
		}
	})
}
