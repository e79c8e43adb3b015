package sniff

import (
	"bytes"
	"hash/fnv"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// Sniffing allocates nothing per string once a scratch is pooled: the
// candidates' decoders, their output and the group keys live in it (a
// short string cost 50 allocations when each candidate decoded into a new
// string with a new decoder).
func TestSniffAllocatesNothingPerString(t *testing.T) {
	legacy, utf8 := paragraphs(t)
	tests := []struct {
		name    string
		samples [][]byte
	}{
		{"a short Shift_JIS value", [][]byte{[]byte("\x93\x8c\x8b\x9e")}},
		{"a short windows-1251 value", [][]byte{[]byte("\xcc\xee\xf1\xea\xe2\xe0")}},
		{"a form of three short legacy values", [][]byte{[]byte("f\xfcr"), []byte("\xbc\xad\xbf\xef"), []byte("\xe6ma")}},
		{"a paragraph of EUC-KR", [][]byte{legacy[3]}},
		{"a paragraph of windows-1251", [][]byte{legacy[6]}},
		{"a paragraph of Greek in UTF-8", [][]byte{utf8[9]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New()
			// At most one: a collection may empty the pool during the
			// runs, and a scratch is then made again.
			if n := testing.AllocsPerRun(50, func() { d.Sniff(tt.samples, Evidence{}) }); n > 1 {
				t.Errorf("%v allocations a call, want at most 1", n)
			}
		})
	}
}

// scoreSingle keeps its languages' states in an array of maxLangs.
func TestNoCandidateHasMoreLanguagesThanMaxLangs(t *testing.T) {
	for _, c := range candidates.Get() {
		if len(c.alpha) > maxLangs {
			t.Errorf("%s has %d languages, maxLangs is %d", c.name, len(c.alpha), maxLangs)
		}
	}
}

// fnv128a is hash/fnv's FNV-1a of 128 bits, written out so as not to
// allocate.
func TestFNV128aIsHashFNVs(t *testing.T) {
	for _, in := range []string{"", "a", "foobar", strings.Repeat("\xff\x00é", 700)} {
		h := fnv.New128a()
		h.Write([]byte(in))
		if got, want := fnv128a(nil, []byte(in)), h.Sum(nil); !bytes.Equal(got, want) {
			t.Errorf("fnv128a(%.20q) = %x, hash/fnv says %x", in, got, want)
		}
	}
}

// Composing a text for scoring (windows-1258's Vietnamese, decomposed
// UTF-8) writes what norm.NFC writes, and a short one allocates nothing
// once the scorer's buffer has grown: norm.NFC.AppendString allocated its
// reorder buffer on every call.
func TestComposingIsNFCAndAllocatesNothing(t *testing.T) {
	tests := []struct{ name, text string }{
		{"Vietnamese with its tone marks apart", "Vie\u0302\u0323t Nam ti\u00ea\u0301ng"},
		{"Cyrillic bytes read as windows-1258", "\u0300\u00ee\u00f1\u00ea\u00e2\u00e0"},
		{"more combining marks than a segment holds", "a" + strings.Repeat("\u0301\u0323", 40) + "b"},
		{"the longest text composed by the Iter", strings.Repeat("e\u0301", iterLimit/3)},
		{"a long decomposed text", strings.Repeat("Vie\u0302\u0323t ", 300)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s textScorer
			s.load([]string{tt.text})
			if got, want := string(s.nfc), norm.NFC.String(tt.text); got != want {
				t.Fatalf("composed %+q, norm.NFC says %+q", got, want)
			}
			if len(tt.text) > iterLimit {
				return // composed in one pass, with its allocation
			}
			if n := testing.AllocsPerRun(20, func() { s.load([]string{tt.text}) }); n != 0 {
				t.Errorf("%v allocations a load, want 0", n)
			}
		})
	}
}
