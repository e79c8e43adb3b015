package charset

import (
	"bytes"
	"testing"
)

// firstPointers maps each code point of an index to its first pointer at or
// above min, as "index pointer" (§ 5) takes it.
func firstPointers(idx whatwgIndex, min int, exclude func(int) bool) map[rune]int {
	m := map[rune]int{}
	for p, c := range idx {
		if p < min || exclude != nil && exclude(p) {
			continue
		}
		if q, ok := m[c]; !ok || p < q {
			m[c] = p
		}
	}
	return m
}

// refEncoder is the Encoding Standard's encoder for one code point (§§ 9-14),
// nil for error; it knows the stateless encodings.
func (r *refTables) encoder(name string) func(rune) []byte {
	ascii := func(c rune) bool { return c < 0x80 }
	switch name {
	case "windows-1252":
		ptr := firstPointers(r.windows1252, 0, nil)
		return func(c rune) []byte {
			if ascii(c) {
				return []byte{byte(c)}
			}
			if p, ok := ptr[c]; ok {
				return []byte{byte(p + 0x80)}
			}
			return nil
		}
	case "shift_jis", "euc-jp":
		var ptr map[rune]int
		if name == "shift_jis" {
			ptr = firstPointers(r.jis0208, 0, func(p int) bool { return p >= 8272 && p <= 8835 })
		} else {
			ptr = firstPointers(r.jis0208, 0, nil)
		}
		return func(c rune) []byte {
			switch {
			case ascii(c) || name == "shift_jis" && c == 0x80:
				return []byte{byte(c)}
			case c == 0xA5:
				return []byte{0x5C}
			case c == 0x203E:
				return []byte{0x7E}
			case c >= 0xFF61 && c <= 0xFF9F && name == "shift_jis":
				return []byte{byte(c - 0xFF61 + 0xA1)}
			case c >= 0xFF61 && c <= 0xFF9F:
				return []byte{0x8E, byte(c - 0xFF61 + 0xA1)}
			case c == 0x2212:
				c = 0xFF0D
			}
			p, ok := ptr[c]
			if !ok {
				return nil
			}
			if name == "euc-jp" {
				return []byte{byte(p/94 + 0xA1), byte(p%94 + 0xA1)}
			}
			lead, trail := p/188, p%188
			leadOffset, offset := 0xC1, 0x41
			if lead < 0x1F {
				leadOffset = 0x81
			}
			if trail < 0x3F {
				offset = 0x40
			}
			return []byte{byte(lead + leadOffset), byte(trail + offset)}
		}
	case "euc-kr":
		ptr := firstPointers(r.euckr, 0, nil)
		return func(c rune) []byte {
			if ascii(c) {
				return []byte{byte(c)}
			}
			if p, ok := ptr[c]; ok {
				return []byte{byte(p/190 + 0x81), byte(p%190 + 0x41)}
			}
			return nil
		}
	case "big5":
		ptr := firstPointers(r.big5, (0xA1-0x81)*157, nil)
		for p, c := range r.big5 {
			switch c {
			case 0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345:
				if p > ptr[c] {
					ptr[c] = p // the last pointer for these six
				}
			}
		}
		return func(c rune) []byte {
			if ascii(c) {
				return []byte{byte(c)}
			}
			p, ok := ptr[c]
			if !ok {
				return nil
			}
			trail, offset := p%157, 0x62
			if trail < 0x3F {
				offset = 0x40
			}
			return []byte{byte(p/157 + 0x81), byte(trail + offset)}
		}
	case "gbk", "gb18030":
		ptr := firstPointers(r.gb18030, 0, nil)
		gbk := name == "gbk"
		return func(c rune) []byte {
			switch {
			case ascii(c):
				return []byte{byte(c)}
			case c == 0xE5E5:
				return nil
			case gbk && c == 0x20AC:
				return []byte{0x80}
			}
			if p, ok := ptr[c]; ok {
				trail, offset := p%190, 0x41
				if trail < 0x3F {
					offset = 0x40
				}
				return []byte{byte(p/190 + 0x81), byte(trail + offset)}
			}
			if gbk {
				return nil
			}
			p := 7457
			if c != 0xE7C7 {
				// "index gb18030 ranges pointer" (§ 5).
				off, base := 0, 0
				if c > 0xFFFF {
					off, base = 0x10000, 189000
				} else {
					for _, e := range r.gbRanges {
						if rune(e[1]) > c {
							break
						}
						base, off = e[0], e[1]
					}
				}
				p = base + int(c) - off
			}
			b1 := p / 12600
			p %= 12600
			b2 := p / 1260
			p %= 1260
			return []byte{byte(b1 + 0x81), byte(b2 + 0x30), byte(p/10 + 0x81), byte(p%10 + 0x30)}
		}
	}
	return nil
}

// encodeDivergence says why Encode knowingly departs from the standard's
// encoder for c, or "" where it does not.
func encodeDivergence(name string, c rune) string {
	switch {
	case (name == "shift_jis" || name == "euc-jp") && (c == 0xA5 || c == 0x203E):
		return "the standard writes 5C/7E, which decode to '\\' and '~': a non-ASCII character must not come back as ASCII syntax"
	case name == "euc-jp" && c != 0xA5 && c != 0x203E && len(eucJPJIS0212(c)) == 3:
		return "x/text writes JIS X 0212 as 8F xx xx, which the standard's decoder reads back but its encoder never writes: kept, as it loses nothing"
	case name == "big5" && big5BelowA1(c):
		return "x/text writes HKSCS pointers below lead A1, which the standard's decoder reads back but its encoder skips: kept, as it loses nothing"
	case name == "gb18030" && gbRefuses(false, c), name == "gbk" && gbRefuses(true, c):
		return "no gb18030 sequence decodes to it; the standard's ranges arithmetic writes bytes for another character"
	}
	return ""
}

// TestEncodeWritesWhatTheStandardsEncoderWrites compares Encode with the
// reference encoder on every BMP code point (and every 97th beyond).
func TestEncodeWritesWhatTheStandardsEncoderWrites(t *testing.T) {
	r := loadRef(t)
	for _, name := range []string{"shift_jis", "euc-jp", "euc-kr", "big5", "gbk", "gb18030", "windows-1252"} {
		t.Run(name, func(t *testing.T) {
			c, ref := MustLookup(name), r.encoder(name)
			bad := 0
			for cp := rune(0); cp <= 0x10FFFF; cp++ {
				if cp >= 0xD800 && cp <= 0xDFFF || cp > 0xFFFF && cp%97 != 0 {
					continue
				}
				want := ref(cp)
				got, err := c.Encode(string(cp), false)
				if err != nil {
					got = nil
				}
				if bytes.Equal(got, want) || encodeDivergence(name, cp) != "" {
					continue
				}
				if bad++; bad <= 10 {
					t.Errorf("%s Encode(%U) = % X (%v); the standard's encoder writes % X", name, cp, got, err, want)
				}
			}
			if bad > 10 {
				t.Errorf("%s: %d code points in all", name, bad)
			}
		})
	}
}

func eucJPJIS0212(c rune) []byte {
	b, err := MustLookup("euc-jp").Encode(string(c), false)
	if err != nil || b[0] != 0x8F {
		return nil
	}
	return b
}

func big5BelowA1(c rune) bool {
	b, err := MustLookup("big5").Encode(string(c), false)
	return err == nil && len(b) == 2 && b[0] < 0xA1
}
