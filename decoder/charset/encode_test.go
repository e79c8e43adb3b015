package charset

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEncode(t *testing.T) {
	for _, tc := range []struct {
		name, charset, in string
		ncr               bool
		want              []byte
		errRune           rune
		errOffset         int
	}{
		{"Shift_JIS writes 印刷 する as its two-byte pairs and ASCII", "shift_jis", "印刷 する", false, []byte{0x88, 0xF3, 0x8D, 0xFC, 0x20, 0x82, 0xB7, 0x82, 0xE9}, 0, 0},
		{"EUC-JP writes 日本", "euc-jp", "日本", false, []byte{0xC6, 0xFC, 0xCB, 0xDC}, 0, 0},
		{"ISO-2022-JP switches to JIS X 0208 and back", "iso-2022-jp", "a日b", false, []byte("a\x1B$BF|\x1B(Bb"), 0, 0},
		{"EUC-KR writes 한", "euc-kr", "한", false, []byte{0xC7, 0xD1}, 0, 0},
		{"GBK writes the euro sign as 80", "gbk", "€", false, []byte{0x80}, 0, 0},
		{"GB18030 writes the euro sign as A2 E3", "gb18030", "€", false, []byte{0xA2, 0xE3}, 0, 0},
		{"GB18030 writes a supplementary character as four bytes", "gb18030", "\U00010000", false, []byte{0x90, 0x30, 0x81, 0x30}, 0, 0},
		{"GB18030 writes a user-defined character as its two bytes, not x/text's four", "gb18030", "\uE000", false, []byte{0xAA, 0xA1}, 0, 0},
		{"Big5 writes 中", "big5", "中", false, []byte{0xA4, 0xA4}, 0, 0},
		{"windows-1252 writes the C1 control U+0081 as 81", "windows-1252", "\u0081", false, []byte{0x81}, 0, 0},
		{"UTF-8 is the text itself", "utf-8", "é€", false, []byte("é€"), 0, 0},
		{"an unencodable character is an error at its offset", "shift_jis", "ab€", false, nil, '€', 2},
		{"the first unencodable character is the one reported", "euc-kr", "xกข", false, nil, 'ก', 1},
		{"with ncr an unencodable character is a decimal reference", "shift_jis", "a€b", true, []byte("a&#8364;b"), 0, 0},
		{"with ncr a supplementary character is one decimal reference", "euc-kr", "\U0001F600", true, []byte("&#128512;"), 0, 0},
		{"ISO-2022-JP refuses ESC, which would switch the decoder", "iso-2022-jp", "a\x1B$Bb", false, nil, 0x1B, 1},
		{"ISO-2022-JP refuses SO", "iso-2022-jp", "\x0E", false, nil, 0x0E, 0},
		{"with ncr ISO-2022-JP writes ESC as U+FFFD's reference, as the standard's encoder does", "iso-2022-jp", "a\x1Bb", true, []byte("a&#65533;b"), 0, 0},
		{"ISO-2022-JP writes a reference in ASCII mode, after leaving JIS X 0208", "iso-2022-jp", "日€", true, []byte("\x1B$BF|\x1B(B&#8364;"), 0, 0},
		{"invalid UTF-8 cannot be encoded", "big5", "a\xFFb", false, nil, utf8.RuneError, 1},
		{"with ncr invalid UTF-8 is U+FFFD's reference, as a browser's string holds U+FFFD there", "shift_jis", "a\xFF", true, []byte("a&#65533;"), 0, 0},
		{"GB18030 refuses U+E5E5, as A3 A0 now decodes to U+3000", "gb18030", "a\uE5E5", false, nil, 0xE5E5, 1},
		{"with ncr GB18030 writes U+E5E5 as its own reference, as browsers do", "gb18030", "\uE5E5", true, []byte("&#58853;"), 0, 0},
		{"GB18030 refuses U+E78D, whose A6 D9 became U+FE10 in GB 18030-2022", "gb18030", "\uE78D", false, nil, 0xE78D, 0},
		{"GB18030 writes U+FE10 as A6 D9", "gb18030", "\uFE10", false, []byte{0xA6, 0xD9}, 0, 0},
		{"GB18030 writes U+E7C7 as the standard's special case 81 35 F4 37", "gb18030", "\uE7C7", false, []byte{0x81, 0x35, 0xF4, 0x37}, 0, 0},
		{"GBK refuses U+E7C7, which has only a four-byte sequence", "gbk", "\uE7C7", false, nil, 0xE7C7, 0},
		{"invalid UTF-8 is refused by UTF-8 too", "utf-8", "ok\xC0\xAF", false, nil, utf8.RuneError, 2},
		{"invalid UTF-8 is refused by GB18030, whose x/text encoder writes U+FFFD for it", "gb18030", "П\xFF", false, nil, utf8.RuneError, 2},
		{"a real U+FFFD is a character Shift_JIS lacks", "shift_jis", "\uFFFD", false, nil, '\uFFFD', 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := MustLookup(tc.charset)
			got, err := c.Encode(tc.in, tc.ncr)
			if tc.want != nil {
				if err != nil || !bytes.Equal(got, tc.want) {
					t.Errorf("%s Encode(%+q, %v) = % X, %v; want % X", tc.charset, tc.in, tc.ncr, got, err, tc.want)
				}
				return
			}
			var u *UnencodableError
			if !errors.As(err, &u) || u.Rune != tc.errRune || u.Offset != tc.errOffset || u.Charset != c.Name() {
				t.Fatalf("%s Encode(%+q) = % X, %v; want *UnencodableError for %U at %d", tc.charset, tc.in, got, err, tc.errRune, tc.errOffset)
			}
			if !strings.Contains(err.Error(), c.Name()) {
				t.Errorf("error %q does not name the charset", err)
			}
		})
	}
}

// supported are the names of every encoding Lookup accepts.
func supported(t *testing.T) []string {
	r := loadRef(t)
	seen := map[string]bool{}
	for label := range r.labels {
		if c, err := Lookup(label); err == nil {
			seen[c.Name()] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// repertoire is every character c decodes from a short byte sequence:
// what a form in c can carry.
func repertoire(c *Charset) []rune {
	set := map[rune]bool{}
	try := func(b []byte) {
		s, bad := c.Decode(b)
		if len(bad) > 0 {
			return
		}
		if r, size := utf8.DecodeRuneInString(s); size == len(s) && size > 0 {
			set[r] = true
		}
	}
	var buf [4]byte
	prefix := []byte(nil)
	switch c.Name() {
	case "iso-2022-jp":
		for b := range 0x80 {
			try([]byte{byte(b)})
		}
		for b := 0x21; b <= 0x5F; b++ {
			try([]byte{0x1B, '(', 'I', byte(b)})
		}
		prefix = []byte("\x1B$B")
	case "euc-jp":
		for b1 := 0xA1; b1 <= 0xFE; b1++ {
			for b2 := 0xA1; b2 <= 0xFE; b2++ {
				try([]byte{0x8F, byte(b1), byte(b2)})
			}
		}
	case "gb18030":
		for b0 := 0x81; b0 <= 0x84; b0++ {
			for b1 := 0x30; b1 <= 0x39; b1++ {
				for b2 := 0x81; b2 <= 0xFE; b2++ {
					for b3 := 0x30; b3 <= 0x39; b3++ {
						try([]byte{byte(b0), byte(b1), byte(b2), byte(b3)})
					}
				}
			}
		}
	}
	for b0 := range 256 {
		buf[0] = byte(b0)
		try(append(prefix, buf[:1]...))
		for b1 := range 256 {
			buf[1] = byte(b1)
			try(append(prefix, buf[:2]...))
		}
	}
	out := make([]rune, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// TestEncodeThenDecodeGivesTheTextBack draws strings from each charset's
// repertoire: Encode must take them and Decode must give them back whole.
// The one exception is Shift_JIS's user-defined area (F040-F9FC decode to
// U+E000-U+E757), which the standard's encoder refuses as x/text does.
func TestEncodeThenDecodeGivesTheTextBack(t *testing.T) {
	for _, name := range supported(t) {
		t.Run(name, func(t *testing.T) {
			c := MustLookup(name)
			rep := repertoire(c)
			if len(rep) < 128 {
				t.Fatalf("%s: repertoire of only %d characters", name, len(rep))
			}
			rng := rand.New(rand.NewPCG(3, uint64(len(rep))))
			refused := map[rune]bool{}
			for range 3000 {
				var sb strings.Builder
				for range 1 + rng.IntN(12) {
					sb.WriteRune(rep[rng.IntN(len(rep))])
				}
				s := sb.String()
				b, err := c.Encode(s, false)
				if err != nil {
					var u *UnencodableError
					if !errors.As(err, &u) {
						t.Fatalf("%s Encode(%+q): %v", name, s, err)
					}
					refused[u.Rune] = true
					continue
				}
				back, bad := c.Decode(b)
				if back != s || len(bad) > 0 {
					t.Fatalf("%s: Decode(Encode(%+q) = % X) = %+q, errors %v", name, s, b, back, bad)
				}
			}
			for r := range refused {
				if !(name == "shift_jis" && r >= 0xE000 && r <= 0xE757) {
					t.Errorf("%s refuses %U, which it decodes", name, r)
				}
			}
			if len(refused) > 0 {
				var rs []rune
				for r := range refused {
					rs = append(rs, r)
				}
				slices.Sort(rs)
				t.Logf("%s refuses %d decodable characters: %s", name, len(refused), runeRanges(rs))
			}
		})
	}
}

// TestEncodeWritesOnlyBytesTheStandardDecodesBack encodes every BMP code
// point (and every seventh beyond) alone and decodes the bytes with the
// reference decoder: whatever Encode writes must be that character again,
// never another one.
func TestEncodeWritesOnlyBytesTheStandardDecodesBack(t *testing.T) {
	r := loadRef(t)
	step := rune(7)
	if testing.Short() {
		step = 997
	}
	for _, name := range referenced {
		t.Run(name, func(t *testing.T) {
			c := MustLookup(name)
			refused := 0
			for cp := rune(0); cp <= 0x10FFFF; cp++ {
				if cp >= 0xD800 && cp <= 0xDFFF || cp > 0xFFFF && cp%step != 0 {
					continue
				}
				b, err := c.Encode(string(cp), false)
				if err != nil {
					refused++
					continue
				}
				want := string(cp)
				if cp == 0x2212 && (name == "shift_jis" || name == "euc-jp") {
					want = "\uFF0D" // the standard's encoder writes MINUS SIGN as FULLWIDTH HYPHEN-MINUS
				}
				if s, errs := r.decode(name, b); s != want || len(errs) > 0 {
					t.Errorf("%s Encode(%U) = % X, which the Encoding Standard decodes to %+q", name, cp, b, s)
				}
			}
			t.Logf("%s refuses %d of the code points tried", name, refused)
		})
	}
}

func runeRanges(rs []rune) string {
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if j > i {
			fmt.Fprintf(&b, "%U-%U ", rs[i], rs[j])
		} else {
			fmt.Fprintf(&b, "%U ", rs[i])
		}
		i = j + 1
	}
	return b.String()
}
