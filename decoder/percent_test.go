package decoder

import (
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// percentDecode is the WHATWG percent-decode algorithm (URL § 1.3) as the
// standard writes it, byte by byte, with the form parser's '+' (§ 5.1)
// and the offsets of the '%' it keeps: the truth unescape is held to.
func percentDecode(s string, mode escapeMode) (string, []int) {
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	val := func(c byte) byte {
		switch {
		case c <= '9':
			return c - '0'
		case c <= 'F':
			return c - 'A' + 10
		}
		return c - 'a' + 10
	}
	var out []byte
	var bad []int
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+' && mode == modeForm:
			out = append(out, ' ')
		case c != '%':
			out = append(out, c)
		case i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			out = append(out, val(s[i+1])<<4|val(s[i+2]))
			i += 2
		default:
			out = append(out, '%')
			bad = append(bad, i)
		}
	}
	return string(out), bad
}

func checkUnescape(t *testing.T, s string) {
	t.Helper()
	for _, mode := range []escapeMode{modeForm, modeWord} {
		got, gotBad := unescape(s, mode)
		want, wantBad := percentDecode(s, mode)
		if got != want || gotBad.n != len(wantBad) || !slices.Equal(gotBad.kept(), wantBad[:min(len(wantBad), keptOffsets)]) {
			t.Fatalf("unescape(%q, %d) = %q, %d bad %v; the algorithm gives %q %v", s, mode, got, gotBad.n, gotBad.kept(), want, wantBad)
		}
		if len(wantBad) > 0 {
			continue
		}
		// Without a malformed escape, net/url agrees too.
		ref, err := url.PathUnescape(s)
		if mode == modeForm {
			ref, err = url.QueryUnescape(s)
		}
		if err != nil || got != ref {
			t.Fatalf("unescape(%q, %d) = %q; net/url gives %q, %v", s, mode, got, ref, err)
		}
	}
}

func TestUnescapeIsThePercentDecodeAlgorithm(t *testing.T) {
	cases := []string{
		"", "a", "%", "%%", "%%%", "%4", "%41", "%4g", "%g4", "a%", "a%4", "%41%", "%41%4", "%%41", "%4%41",
		"+", "a+b", "%2B", "%2b+%20", "%E5%8D%B0%E5%88%B7", "%e5%8d%b0", "%00", "%FF%fe", "100%", "100%+sure",
		"%41%42%43x%44", "x%zz%41", strings.Repeat("%E5%8D%B0", 1000) + "%", strings.Repeat("%", 50) + "%41",
	}
	for _, s := range cases {
		checkUnescape(t, s)
	}
	pieces := []string{"%", "%4", "%41", "%e5", "%zz", "+", "a", "é", "%%", "%2", "%2B", "%0"}
	r := rand.New(rand.NewPCG(3, 5))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkUnescape(t, b.String())
	}
}

func FuzzUnescape(f *testing.F) {
	for _, s := range []string{"%41", "%", "%4", "a+b%2B", "%E5%8D%B0%", "%%41"} {
		f.Add(s)
	}
	f.Fuzz(checkUnescape)
}
