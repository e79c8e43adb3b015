package charset

import (
	"testing"
	"unicode/utf8"
)

// fuzzCharsets are the encodings FuzzDecode and FuzzEncodeRoundTrip pick
// from with the input's first byte.
var fuzzCharsets = append(append([]string(nil), referenced...), "utf-8", "windows-1251", "koi8-u", "windows-874", "iso-8859-7")

func fuzzSeeds(f *testing.F) {
	for i, s := range []string{
		"", "plain ascii", "\x81\"><script>", "\x82\\\"", "\x95\\", "\xBF\\'", "\x1B$B!\x1B(B<script>",
		"<scr\x1B$B\x1B(Bipt>", "\x1B(J\\~", "\x81<\x810script>", "\x84\x31\xA4\x37", "\x8F\xB0\xA1<",
		"\x88\xF3\x8D\xFC \x82\xB7\x82\xE9", "\x81\x8D\x8F\x90\x9D", "\xF0\x40\xF9\xFC", "\xAA\xA1\xA3\xA0",
		"\x0E\x0F\x1B", "\xE3\x32\x9A\x35\xE3\x32\x9A\x36",
	} {
		f.Add(byte(i), []byte(s))
	}
}

// FuzzDecode: no panic, valid UTF-8 out, errors in range and in order, and,
// for the charsets the reference decoder knows, the same text and error
// offsets as it.
func FuzzDecode(f *testing.F) {
	fuzzSeeds(f)
	ref := loadRef(f)
	f.Fuzz(func(t *testing.T, which byte, src []byte) {
		c := MustLookup(fuzzCharsets[int(which)%len(fuzzCharsets)])
		checkDecodeInvariants(t, c, src)
		if ref.decoder(c.Name()) != nil {
			if m := mismatch(ref, c, src); m != "" {
				t.Fatal(m)
			}
		}
	})
}

// FuzzEncodeRoundTrip: whatever Encode accepts, Decode gives back; with ncr
// Encode accepts any valid UTF-8.
func FuzzEncodeRoundTrip(f *testing.F) {
	for i, s := range []string{"", "印刷 する", "안녕하세요", "中华人民共和国", "繁體中文", "Привет", "a€b", "\uE000\uE5E5\uE7C7", "\x1B$B", "−¥‾"} {
		f.Add(byte(i), s)
	}
	f.Fuzz(func(t *testing.T, which byte, s string) {
		c := MustLookup(fuzzCharsets[int(which)%len(fuzzCharsets)])
		b, err := c.Encode(s, false)
		if err == nil {
			back, bad := c.Decode(b)
			if len(bad) > 0 || back != s && !minusSign(c, s, back) {
				t.Fatalf("%s: Decode(Encode(%+q) = % X) = %+q, errors %v", c.Name(), s, b, back, bad)
			}
		} else if u, ok := err.(*UnencodableError); !ok || u.Offset < 0 || u.Offset >= len(s) {
			t.Fatalf("%s Encode(%+q): %v", c.Name(), s, err)
		}
		if !utf8.ValidString(s) {
			return
		}
		b, err = c.Encode(s, true)
		if err != nil {
			t.Fatalf("%s Encode(%+q, ncr): %v", c.Name(), s, err)
		}
		if _, bad := c.Decode(b); len(bad) > 0 {
			t.Fatalf("%s: Encode(%+q, ncr) = % X does not decode cleanly: %v", c.Name(), s, b, bad)
		}
	})
}

// minusSign allows the one lossy mapping of the standard's Japanese
// encoders: U+2212 is written as U+FF0D.
func minusSign(c *Charset, s, back string) bool {
	if c.Name() != "shift_jis" && c.Name() != "euc-jp" {
		return false
	}
	rs, bs := []rune(s), []rune(back)
	if len(rs) != len(bs) {
		return false
	}
	for i := range rs {
		if rs[i] != bs[i] && !(rs[i] == 0x2212 && bs[i] == 0xFF0D) {
			return false
		}
	}
	return true
}
