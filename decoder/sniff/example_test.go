package sniff_test

import (
	"fmt"

	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/sniff"
)

// A search word arrives as percent-decoded bytes with no charset named:
// %93%8C%8B%9E is "東京" in Shift_JIS.
func ExampleNew() {
	s := sniff.New()
	g, ok := s.Sniff([][]byte{[]byte("\x93\x8C\x8B\x9E")}, sniff.Evidence{})
	fmt.Println(g.Charset, ok)
	c, _ := charset.Lookup(g.Charset)
	text, _ := c.Decode([]byte("\x93\x8C\x8B\x9E"))
	fmt.Println(text)
	// Output:
	// shift_jis true
	// 東京
}

// All the non-ASCII strings of one request share a charset: a short word
// is read together with the longer field beside it.
func ExampleDetector_Sniff() {
	var d sniff.Detector // the zero value is ready
	samples := [][]byte{
		[]byte("\xE6ma"), // "ćma" in windows-1250
		[]byte("za\xBF\xF3\xB3\xE6 g\xEA\x9Cl\xB9 ja\x9F\xF1"), // "zażółć gęślą jaźń"
	}
	g, _ := d.Sniff(samples, sniff.Evidence{})
	fmt.Println(g.Charset)
	// Output: windows-1250
}

// Evidence from the request tips a string the bytes alone leave open: the
// three bytes EC E7 ED are "לחם" in windows-1255 and Greek letters in
// windows-1253.
func ExampleEvidence() {
	b := [][]byte{[]byte("\xEC\xE7\xED")}
	g, _ := sniff.New().Sniff(b, sniff.Evidence{AcceptLanguage: "he-IL,he;q=0.9", Host: "www.example.co.il"})
	fmt.Println(g.Charset)
	// Output: windows-1255
}

// A bare [EUC] charset hint names a family; the guess stays inside it.
func ExampleEvidence_candidates() {
	b := [][]byte{[]byte("\xBC\xAD\xBF\xEF")} // "서울" in EUC-KR
	g, _ := sniff.New().Sniff(b, sniff.Evidence{Candidates: []string{"euc-jp", "euc-kr", "gbk"}})
	fmt.Println(g.Charset)
	// Output: euc-kr
}

// Pure ASCII decodes alike in every candidate: there is nothing to guess.
func ExampleSniffer() {
	var s sniff.Sniffer = sniff.Detector{}
	g, ok := s.Sniff([][]byte{[]byte("hello")}, sniff.Evidence{})
	fmt.Printf("%q %v\n", g.Charset, ok)
	// Output: "" false
}

// A Guess carries a confidence: valid UTF-8 with multibyte characters is
// near certain.
func ExampleGuess() {
	g, _ := sniff.New().Sniff([][]byte{[]byte("東京")}, sniff.Evidence{})
	fmt.Println(g.Charset, g.Confidence > 0.99)
	// Output: utf-8 true
}
