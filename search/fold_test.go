package search

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// foldEachSegment is fold as it was defined before runs of ASCII skipped
// norm.Iter: every segment of s from one norm.Iter, an ASCII segment
// copied, any other folded by x/text. fold must give the same text and
// the same map.
func foldEachSegment(s string) folded {
	var f folded
	var b []byte
	mark := func(start, pos int, run bool) {
		if n := len(f.spans); n > 0 && f.spans[n-1].run == run && (run || int(f.spans[n-1].orig) == pos) {
			return
		}
		f.spans = append(f.spans, span{start: int32(start), orig: int32(pos), run: run})
	}
	var it norm.Iter
	it.InitString(norm.NFKC, s)
	for !it.Done() {
		pos, start := it.Pos(), len(b)
		seg := it.Next()
		if len(seg) == 1 && seg[0] < utf8.RuneSelf && it.Pos() == pos+1 {
			b = append(b, lowerASCII(seg[0]))
			mark(start, pos, true)
			continue
		}
		b = append(b, folder.Bytes(seg)...)
		_, size := utf8.DecodeRuneInString(s[pos:])
		mark(start, pos, it.Pos() == pos+size && len(b)-start == size && utf8.RuneCount(b[start:]) == 1)
	}
	f.text = string(b)
	return f
}

func TestInertRunesFoldToThemselves(t *testing.T) {
	for r := range rune(unicode.MaxRune) {
		if !inert(r) {
			continue
		}
		s := string(r)
		if n := norm.NFKC.String(s); n != s || folder.String(n) != s || !startsSegment(s) {
			t.Errorf("%U: NFKC %q, folded %q, starts a segment %v", r, n, folder.String(n), startsSegment(s))
		}
	}
}

func TestCompatASCIILeads(t *testing.T) {
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		s := string(r)
		if d := norm.NFKC.PropertiesString(s).Decomposition(); len(d) == 1 && d[0] < utf8.RuneSelf && !mayBeCompatASCII(s) {
			t.Errorf("%U, whose NFKC form is %q, is not among those mayBeCompatASCII may start", r, d)
		}
	}
}

// randomText is fewer than most runes drawn from alphabet.
func randomText(rng *rand.Rand, alphabet []rune, most int) string {
	rs := make([]rune, rng.IntN(most))
	for i := range rs {
		rs[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(rs)
}

func TestFoldIsEachSegmentFolded(t *testing.T) {
	// ASCII next to what combines with it or decomposes, Hangul jamo,
	// characters that fold to several, ellipses, CJK.
	alphabet := []rune("aZe.  AK\u0301\u0308\u0345\u20dd…ﬁßẞＡｶﾞﾥK\u1100\u1161\u11a8가印刷かがカー、\u3099\u309aㄱ\ufdfaΣς\u3000\u3000\u00a0İǅ")
	rng := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		s := randomText(rng, alphabet, 40)
		got, want := fold(s), foldEachSegment(s)
		if got.text != want.text || !slices.Equal(got.spans, want.spans) {
			t.Fatalf("fold(%q) = %q %v; each segment folded: %q %v", s, got.text, got.spans, want.text, want.spans)
		}
	}
	// Not UTF-8 (a crafted index's record): norm.Iter cuts a truncated
	// sequence byte by byte at the end of its input, whole before an
	// ASCII byte, so the map depends on the Iter seeing what follows.
	// Some bytes of each text are replaced by stray ones, and one
	// foldBuf folds them all, as a matcher does.
	var w foldBuf
	for range 20000 {
		b := []byte(randomText(rng, alphabet, 40))
		for range min(len(b), 3) {
			b[rng.IntN(len(b))] = byte(0x80 + rng.IntN(0x80))
		}
		s := string(b)
		got, want := w.fold(s), foldEachSegment(s)
		if got.text != want.text || !slices.Equal(got.spans, want.spans) {
			t.Fatalf("fold(%q) = %q %v; each segment folded: %q %v", s, got.text, got.spans, want.text, want.spans)
		}
	}
	for _, s := range []string{"", "A", "AB", "a\u0301", "ab\u0301c", "x印y", "Hello, World.", "…ab…", "\u1100\u1161a",
		"\xf3\x80\x8ca", "\xf3\x80ab", "x\xe2\x80é\xe2\x80ab", "a\u200d\ufe0fb", "K\u0345\U000E0100z"} {
		got, want := fold(s), foldEachSegment(s)
		if got.text != want.text || !slices.Equal(got.spans, want.spans) {
			t.Errorf("fold(%q) = %q %v; each segment folded: %q %v", s, got.text, got.spans, want.text, want.spans)
		}
	}
}

func TestFoldSnippetIsFold(t *testing.T) {
	alphabet := []rune("aZe. K\u0301\u0308\u0345…ﬁß\u1100\u1161가印\ufdfaΣ\u3000")
	rng := rand.New(rand.NewPCG(8, 8))
	var w, body foldBuf // one for all, as a matcher's
	for range 40000 {
		s := randomText(rng, alphabet, 12)
		if b := []byte(s); len(b) > 0 && rng.IntN(2) == 0 { // stray bytes, as a crafted index may hold
			for range min(len(b), 2) {
				b[rng.IntN(len(b))] = byte(0x80 + rng.IntN(0x80))
			}
			s = string(b)
		}
		if rng.IntN(2) == 0 {
			s = ellipsis + s
		}
		if rng.IntN(2) == 0 {
			s += ellipsis
		}
		got, want := w.foldSnippet(s, &body), fold(s)
		if got.text != want.text || !slices.Equal(got.spans, want.spans) {
			t.Fatalf("(*foldBuf).foldSnippet(%q) = %q %v; fold: %q %v", s, got.text, got.spans, want.text, want.spans)
		}
	}
}

func TestFoldSnippetIsFoldWhateverFollowsTheEllipsis(t *testing.T) {
	// Every character of the BMP right after the cut, the Hangul
	// compatibility jamo among them (ㅡ decomposes to a vowel that
	// composes with what precedes it).
	var w, body foldBuf
	for r := rune(0x80); r <= 0xffff; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := ellipsis + string(r) + "a" + ellipsis
		got, want := w.foldSnippet(s, &body), fold(s)
		if got.text != want.text || !slices.Equal(got.spans, want.spans) {
			t.Errorf("(*foldBuf).foldSnippet(%q) = %q %v; fold: %q %v", s, got.text, got.spans, want.text, want.spans)
		}
	}
}

// partsOfRunes is Result.Parts as it was defined before it cut the
// snippet's bytes: the snippet as code points, each piece a new string.
func partsOfRunes(r Result) []Part {
	var parts []Part
	rs := []rune(r.Snippet)
	at := 0
	for _, h := range r.Highlights {
		if h[0] < at || h[1] > len(rs) || h[0] >= h[1] {
			continue
		}
		if h[0] > at {
			parts = append(parts, Part{Text: string(rs[at:h[0]])})
		}
		parts = append(parts, Part{Text: string(rs[h[0]:h[1]]), Mark: true})
		at = h[1]
	}
	if at < len(rs) {
		parts = append(parts, Part{Text: string(rs[at:])})
	}
	return parts
}

func TestPartsAreTheSnippetsCodePointsCut(t *testing.T) {
	alphabet := []rune("ab 印ßé\u0301\U0001F600\ufffd")
	rng := rand.New(rand.NewPCG(10, 10))
	for range 20000 {
		s := randomText(rng, alphabet, 12)
		if rng.IntN(4) == 0 { // bytes that are no code point, as a crafted index may hold
			b := []byte(s)
			b = slices.Insert(b, rng.IntN(len(b)+1), []byte{0xff, 0xe5, 0x8d}[:1+rng.IntN(3)]...)
			s = string(b)
		}
		r := Result{Snippet: s}
		for range rng.IntN(4) {
			a := rng.IntN(14) - 1
			r.Highlights = append(r.Highlights, [2]int{a, a + rng.IntN(5) - 1})
		}
		if got, want := r.Parts(), partsOfRunes(r); !slices.Equal(got, want) {
			t.Fatalf("Parts of %q %v = %+v; the code points cut: %+v", s, r.Highlights, got, want)
		}
	}
}

func TestPartsAllocateOneSlice(t *testing.T) {
	r, ok := match("", "The printing press printed the prints of a printer. "+strings.Repeat("And more text. ", 20), queryOf(t, "print"))
	if !ok || len(r.Highlights) != 4 {
		t.Fatalf("%v %+v", ok, r)
	}
	if n := testing.AllocsPerRun(100, func() { r.Parts() }); n != 1 {
		t.Errorf("Parts of %d highlights allocates %v times; want 1", len(r.Highlights), n)
	}
}
