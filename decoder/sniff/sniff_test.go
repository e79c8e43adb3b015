package sniff

import (
	"bytes"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"testing"
)

// Bytes below were produced by Python's codecs, e.g.
// "東京".encode("shift_jis").hex() == "938c8b9e".
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSniff(t *testing.T) {
	tests := []struct {
		name    string
		samples []string // hex
		ev      Evidence
		want    string
		wantOK  bool
	}{
		{"pure ASCII tells no charset apart", []string{"68656c6c6f"}, Evidence{}, "", false},
		{"no samples tell nothing", nil, Evidence{}, "", false},
		{"UTF-8 with three-byte sequences is UTF-8", []string{"e69db1e4baac"}, Evidence{}, "utf-8", true},
		{"UTF-8 Cyrillic is UTF-8", []string{"d09cd0bed181d0bad0b2d0b0"}, Evidence{}, "utf-8", true},
		{"UTF-8 Armenian is UTF-8", []string{"d4b5d680d687d5a1d5b6"}, Evidence{}, "utf-8", true},
		{"UTF-8 Georgian is UTF-8", []string{"e18397e18391e18398e1839ae18398e183a1e18398"}, Evidence{}, "utf-8", true},
		{"UTF-8 Vietnamese is UTF-8", []string{"5669e1bb8774"}, Evidence{}, "utf-8", true},
		{"Thai in windows-874 that happens to be valid UTF-8 is Thai from a Thai client",
			[]string{"e1bcb9"}, Evidence{AcceptLanguage: "th"}, "windows-874", true},
		{"Thai in windows-874 that reads as an unassigned code point in UTF-8 is Thai (เทพ, U+0DFE)",
			[]string{"e0b7be"}, Evidence{}, "windows-874", true},
		{"UTF-8 accented Latin beside a kanji is UTF-8", []string{"636166c3a920e58db0"}, Evidence{}, "utf-8", true},
		{"GBK that happens to be valid UTF-8 is GBK", []string{"d1a7d0a3"}, Evidence{}, "gbk", true},
		{"Shift_JIS kanji are Shift_JIS", []string{"938c8b9e"}, Evidence{}, "shift_jis", true},
		{"EUC-JP kanji are EUC-JP", []string{"c5ecb5fe"}, Evidence{}, "euc-jp", true},
		{"ISO-2022-JP escapes are ISO-2022-JP", []string{"1b2442456c357e1b2842"}, Evidence{}, "iso-2022-jp", true},
		{"EUC-KR hangul are EUC-KR", []string{"bcadbfef"}, Evidence{}, "euc-kr", true},
		{"UHC hangul outside KS X 1001 (똠방각하, Python's cp949) are EUC-KR", []string{"8c63b9e6b0a2c7cf"}, Evidence{}, "euc-kr", true},
		{"GBK hanzi are GBK", []string{"b1b1bea9"}, Evidence{}, "gbk", true},
		{"Big5 hanzi are Big5", []string{"bb4fa55f"}, Evidence{}, "big5", true},
		{"windows-1251 Russian is windows-1251", []string{"cceef1eae2e0"}, Evidence{}, "windows-1251", true},
		{"KOI8-R Russian is KOI8-R", []string{"edcfd3cbd7c1"}, Evidence{}, "koi8-r", true},
		{"a German umlaut is windows-1252", []string{"66fc72"}, Evidence{}, "windows-1252", true},
		{"a Hebrew word taken for Greek alone is Hebrew with Accept-Language he",
			[]string{"ece7ed"}, Evidence{AcceptLanguage: "he-IL,he;q=0.9,en;q=0.5"}, "windows-1255", true},
		{"a Hebrew word taken for Greek alone is Hebrew on an .il host",
			[]string{"ece7ed"}, Evidence{Host: "www.example.co.il:8080"}, "windows-1255", true},
		{"a short Polish word is read with the longer one beside it",
			[]string{"e66d61", "7a61bff3b3e62067ea9c6cb9206a619ff1"}, Evidence{}, "windows-1250", true},
		{"an EUC family hint keeps the guess among its members",
			[]string{"bcadbfef"}, Evidence{Candidates: []string{"euc-jp", "gbk"}}, "in the family", true},
		{"unknown candidate labels are ignored",
			[]string{"bcadbfef"}, Evidence{Candidates: []string{"no-such-charset", "EUC-KR"}}, "euc-kr", true},
		{"a hint may name an encoding outside the candidate list (Москва in ISO-8859-5)",
			[]string{"bcdee1dad2d0"}, Evidence{Candidates: []string{"iso-8859-5", "windows-1252"}}, "iso-8859-5", true},
		{"a GB18030 hint is weighed as Chinese",
			[]string{"b1b1bea9"}, Evidence{Candidates: []string{"gb18030", "big5"}}, "gb18030", true},
		{"a letter the only candidate's languages lack still gets a guess",
			[]string{"c6"}, Evidence{Candidates: []string{"windows-1258"}}, "windows-1258", true},
		{"bytes no candidate decodes name the one with the fewest errors",
			[]string{"ffff"}, Evidence{Candidates: []string{"shift_jis", "euc-jp"}}, "shift_jis", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var samples [][]byte
			for _, s := range tt.samples {
				samples = append(samples, unhex(t, s))
			}
			g, ok := New().Sniff(samples, tt.ev)
			want := tt.want
			if want == "in the family" && (g.Charset == "euc-jp" || g.Charset == "gbk") {
				want = g.Charset
			}
			if g.Charset != want || ok != tt.wantOK {
				t.Errorf("Sniff = %+v, %v; want %q, %v", g, ok, tt.want, tt.wantOK)
			}
			if !(g.Confidence >= 0 && g.Confidence <= 1) || !ok && g.Confidence != 0 {
				t.Errorf("confidence %v out of range", g.Confidence)
			}
		})
	}
}

func TestEvidenceRaisesConfidence(t *testing.T) {
	b := unhex(t, "ece7ed") // "לחם" in windows-1255
	plain, _ := Detector{}.Sniff([][]byte{b}, Evidence{})
	told, _ := Detector{}.Sniff([][]byte{b}, Evidence{AcceptLanguage: "he"})
	if told.Charset != "windows-1255" || told.Confidence <= plain.Confidence && plain.Charset == told.Charset {
		t.Errorf("without evidence %+v, with Accept-Language he %+v", plain, told)
	}
}

func TestHostTLD(t *testing.T) {
	tests := []struct{ name, host, want string }{
		{"a host name gives its last label", "www.example.jp", "jp"},
		{"a port is dropped", "example.kr:8443", "kr"},
		{"capitals are folded", "WWW.EXAMPLE.JP", "jp"},
		{"a final dot is dropped", "example.cn.", "cn"},
		{"an IPv4 address has no TLD", "192.0.2.1", ""},
		{"an IPv6 address has no TLD", "[2001:db8::1]:80", ""},
		{"a single label has no TLD", "localhost", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hostTLD(tt.host); got != tt.want {
				t.Errorf("hostTLD(%q) = %q, want %q", tt.host, got, tt.want)
			}
		})
	}
}

func TestPriorsFollowCLDRLikelyLanguages(t *testing.T) {
	tests := []struct {
		name string
		ev   Evidence
		lang string
	}{
		{"zh-TW asks for traditional Chinese", Evidence{AcceptLanguage: "zh-TW"}, "zh-Hant"},
		{"zh-CN asks for simplified Chinese", Evidence{AcceptLanguage: "zh-CN,zh;q=0.9"}, "zh-Hans"},
		{"a .tw host is traditional Chinese", Evidence{Host: "example.com.tw"}, "zh-Hant"},
		{"a .ua host is Ukrainian", Evidence{Host: "example.ua"}, "uk"},
		{"a .jp host is Japanese", Evidence{Host: "example.jp"}, "ja"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p := priorsFor(tt.ev); p.of(tt.lang) <= 0 {
				t.Errorf("priors %v give %s nothing", p, tt.lang)
			}
		})
	}
	if p := priorsFor(Evidence{Host: "example.com"}); len(p) != 0 {
		t.Errorf("a .com host favours %v", p)
	}
}

func TestLargeBodies(t *testing.T) {
	// "Москва " in windows-1251, by Python's codecs.
	word := unhex(t, "cceef1eae2e020")
	body := bytes.Repeat(word, 20000)
	t.Run("a large body is scored from its start", func(t *testing.T) {
		if g, ok := New().Sniff([][]byte{body}, Evidence{}); g.Charset != "windows-1251" || !ok {
			t.Errorf("Sniff = %+v, %v", g, ok)
		}
	})
	t.Run("a large body is checked whole: a byte windows-1251 lacks at its end rules it out", func(t *testing.T) {
		bad := append(bytes.Clone(body), 0x98)
		g, ok := New().Sniff([][]byte{bad}, Evidence{})
		if g.Charset == "windows-1251" || !ok {
			t.Errorf("Sniff = %+v, %v", g, ok)
		}
	})
}

func TestSniffIsSafeForConcurrentUseAndDeterministic(t *testing.T) {
	rows := loadCorpus(t)
	want := make([]Guess, len(rows))
	for i, r := range rows {
		want[i], _ = Detector{}.Sniff([][]byte{r.raw}, Evidence{})
	}
	done := make(chan int)
	for w := range 4 {
		go func() {
			bad := 0
			for i := w; i < len(rows); i += 2 {
				if g, _ := (Detector{}).Sniff([][]byte{rows[i].raw}, Evidence{}); g != want[i] {
					bad++
				}
			}
			done <- bad
		}()
	}
	for range 4 {
		if bad := <-done; bad > 0 {
			t.Errorf("%d guesses differ between calls", bad)
		}
	}
}

// cjkCost takes the ideographs and hangul syllables for letters without
// asking the Unicode tables: every code point of their blocks is one.
func TestTheLetterBlocksAreAllLetters(t *testing.T) {
	for r := rune(0x80); r <= 0xFFFF; r++ {
		if allLetters(r) && !isWordRune(r) {
			t.Fatalf("%U is taken for a letter but is none", r)
		}
	}
}

// cjkCost prices an ASCII character in CJK text by its glyph: what
// nonLetterCost says of it, and scriptSwitchCost where a letter touches a
// CJK character on either side; it also ends a run of one class (the
// second 東 below pays its class in full).
func TestCJKCostOfASCIIIsItsNonLetterCost(t *testing.T) {
	var gc glyphCache
	for l := range cjkNames {
		l := cjkLang(l)
		han := cjkCost(l, "東", &gc, math.Inf(1))
		for c := rune(0); c < 0x80; c++ {
			want := nonLetterCost(c)
			if got := cjkCost(l, string(c), &gc, math.Inf(1)); got != want {
				t.Errorf("%s: %q alone costs %v, want %v", cjkNames[l], c, got, want)
			}
			if isWordRune(c) {
				want += 2 * scriptSwitchCost
			}
			got := cjkCost(l, "東"+string(c)+"東", &gc, math.Inf(1)) - 2*han
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("%s: %q between two 東 costs %v, want %v", cjkNames[l], c, got, want)
			}
		}
	}
}

// logAdd's shortcuts give what the formula gives, to the last bit.
func TestLogAddIsTheFormula(t *testing.T) {
	for _, tt := range []struct {
		name string
		a, b float64
	}{
		{"equal scores", -37.25, -37.25},
		{"equal at zero", 0, 0},
		{"half a bit apart", -12.5, -13},
		{"far apart", -10, -100},
		{"just within 64 bits", -10, -73.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hi, lo := max(tt.a, tt.b), min(tt.a, tt.b)
			want := hi + math.Log2(1+math.Exp2(lo-hi))
			if got := logAdd(tt.a, tt.b); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("logAdd(%v, %v) = %v, the formula %v", tt.a, tt.b, got, want)
			}
		})
	}
}

// exp2 is math.Exp2, to the last bit, over the differences Sniff meets and
// far beyond them, where it hands x to math.Exp2.
func TestExp2IsMathExp2(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1, -1, 999.9, -999.9, 1000, -1000, 1023.5, -1074.5, -1080, 2000, math.Inf(1), math.Inf(-1), math.NaN()}
	for i := range 400_000 {
		switch i % 4 {
		case 0: // anywhere
			xs = append(xs, (rng.Float64()-0.5)*2400)
		case 1: // the differences of scores, from Sniff's groups
			xs = append(xs, -rng.Float64()*120)
		case 2: // on the grid of half bits and priors
			xs = append(xs, -float64(rng.IntN(400))/2-float64(rng.IntN(7))/3)
		default: // near the halves, where the reduction rounds
			xs = append(xs, float64(rng.IntN(2000)-1000)+0.5+(rng.Float64()-0.5)*1e-9)
		}
	}
	for _, x := range xs {
		got, want := exp2(x), math.Exp2(x)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("exp2(%v) = %v, math.Exp2 says %v", x, got, want)
		}
	}
}

// expCache answers what log2(1+2^d) answers, to the last bit, whatever
// was asked before it (differences that share a slot included), and a
// string sniffed again computes none: its groups' differences are all
// remembered.
func TestExpCacheIsTheMathAndSparesIt(t *testing.T) {
	t.Run("every answer is the function's, to the last bit", func(t *testing.T) {
		var c expCache
		for i := range 20000 {
			// Differences on a grid of half bits and off it, many
			// times more than the slots, each asked twice.
			d := -float64(i%300)/2 - float64(i/300)*math.Log2(3)/7
			want := math.Log2(1 + math.Exp2(d))
			for range 2 {
				if got := c.of(d); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("log2(1+2^%v): %v, want %v", d, got, want)
				}
			}
		}
		if got, want := c.of(math.Inf(-1)), 0.0; got != want {
			t.Errorf("log2(1+2^-Inf) = %v, want %v", got, want)
		}
		if got := c.of(math.NaN()); !math.IsNaN(got) {
			t.Errorf("log2(1+2^NaN) = %v, want NaN", got)
		}
	})
	t.Run("a string sniffed again computes no logarithm", func(t *testing.T) {
		for _, s := range []string{"\x93\x8c\x8b\x9e", "\xcc\xee\xf1\xea\xe2\xe0", "f\xfcr", "\xb0\xa1\xb3\xaa"} {
			samples := [][]byte{[]byte(s)}
			checked := false
			for try := 0; try < 10 && !checked; try++ {
				sc := peekScratch()
				Detector{}.Sniff(samples, Evidence{})
				before := sc.exp.computed
				Detector{}.Sniff(samples, Evidence{})
				if peekScratch() != sc || before == 0 {
					continue
				}
				checked = true
				if sc.exp.computed != before {
					t.Errorf("%q: sniffed again, %d logarithms computed again", s, sc.exp.computed-before)
				}
			}
			if !checked {
				t.Fatalf("%q: the pool never kept its scratch", s)
			}
		}
	})
}

// peekScratch is the scratch the next Sniff takes from the pool: the same
// one call after call, unless a collection empties the pool (a test then
// tries again).
func peekScratch() *scratch {
	sc := scratchPool.Get().(*scratch)
	scratchPool.Put(sc)
	return sc
}

func TestSetPriorsIsPriorsOfEveryLanguage(t *testing.T) {
	// One scratch for all, as the pool hands them out: each call's priors
	// replace the last's, and a call without evidence has none left over.
	sc := new(scratch)
	for _, tc := range []struct {
		name string
		ev   Evidence
	}{
		{"Accept-Language names several languages", Evidence{AcceptLanguage: "pl, cs;q=0.8, de;q=0.5", Host: "example.ru"}},
		{"no evidence leaves no bonus", Evidence{}},
		{"a country's TLD alone", Evidence{Host: "www.example.gr"}},
		{"Norwegian goes to the Danish model", Evidence{AcceptLanguage: "nb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pri := priorsFor(tc.ev)
			sc.setPriors(pri)
			for i := range alphaLangs {
				if got, want := sc.langPri[i], pri.of(alphaLangs[i].name); got != want {
					t.Errorf("%s: langPri %v, priors.of %v", alphaLangs[i].name, got, want)
				}
			}
		})
	}
}
