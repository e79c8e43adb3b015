package charset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// multibyte are the encodings the reference decoder has full tables for.
var multibyte = []string{"shift_jis", "euc-jp", "iso-2022-jp", "euc-kr", "gbk", "gb18030", "big5"}

// referenced adds the single-byte encodings whose index is in the vectors.
var referenced = append(slices.Clone(multibyte), "windows-1252")

// mismatch compares Decode with the reference on src; "" when they agree.
func mismatch(r *refTables, c *Charset, src []byte) string {
	want, wantErrs := r.decode(c.Name(), src)
	got, bad := c.Decode(src)
	gotErrs := make([]int, len(bad))
	for i, b := range bad {
		gotErrs[i] = b.Offset
	}
	if got == want && slices.Equal(gotErrs, wantErrs) {
		return ""
	}
	return fmt.Sprintf("%s(% X): Decode = %+q errors at %v; the Encoding Standard gives %+q errors at %v",
		c.Name(), src, got, gotErrs, want, wantErrs)
}

// differ counts the inputs where Decode and the reference disagree and
// reports the first few.
type differ struct {
	t     *testing.T
	r     *refTables
	c     *Charset
	count int
}

func (d *differ) check(src []byte) {
	if m := mismatch(d.r, d.c, src); m != "" {
		d.count++
		if d.count <= 5 {
			d.t.Error(m)
		}
	}
}

func (d *differ) done() {
	if d.count > 5 {
		d.t.Errorf("%s: %d inputs differ from the Encoding Standard in all", d.c.Name(), d.count)
	}
}

func newDiffer(t *testing.T, name string) *differ {
	return &differ{t: t, r: loadRef(t), c: MustLookup(name)}
}

// prefixes put a stateful decoder in each of its states first.
func prefixes(name string) [][]byte {
	if name == "iso-2022-jp" {
		return [][]byte{nil, []byte("\x1B$B"), []byte("\x1B$@"), []byte("\x1B(J"), []byte("\x1B(I"), []byte("\x1B$B\x30")}
	}
	return [][]byte{nil}
}

func TestDecodeMatchesTheEncodingStandardOnEveryShortSequence(t *testing.T) {
	for _, name := range referenced {
		t.Run(name, func(t *testing.T) {
			d := newDiffer(t, name)
			for _, p := range prefixes(name) {
				buf := append(slices.Clone(p), 0, 0, 0)
				n := len(p)
				for b0 := range 256 {
					buf[n] = byte(b0)
					d.check(buf[:n+1])
					for b1 := range 256 {
						buf[n+1] = byte(b1)
						d.check(buf[:n+2])
						for _, b2 := range []byte{'<', 'A', 0x5C} {
							buf[n+2] = b2
							d.check(buf[:n+3])
						}
					}
				}
			}
			d.done()
		})
	}
}

func TestDecodeMatchesTheEncodingStandardOnEUCJPThreeByteSequences(t *testing.T) {
	d := newDiffer(t, "euc-jp")
	buf := []byte{0x8F, 0, 0, '<'}
	for b1 := range 256 {
		for b2 := range 256 {
			buf[1], buf[2] = byte(b1), byte(b2)
			d.check(buf[:3])
			d.check(buf)
		}
	}
	d.done()
}

// TestDecodeMatchesTheEncodingStandardOnGB18030FourByteSequences walks the
// four-byte space in structure: every first byte with digit second and
// fourth bytes, the whole BMP part, and for first bytes at the edges of the ranges (the BMP
// start, the end of the BMP, the supplementary start and end, the last lead)
// every third and fourth byte.
func TestDecodeMatchesTheEncodingStandardOnGB18030FourByteSequences(t *testing.T) {
	for _, name := range []string{"gb18030", "gbk"} {
		t.Run(name, func(t *testing.T) {
			d := newDiffer(t, name)
			buf := []byte{0, 0, 0, 0, '<'}
			for b0 := 0x80; b0 <= 0xFF; b0++ {
				for b1 := 0x2F; b1 <= 0x40; b1++ {
					for _, b2 := range []int{0x30, 0x80, 0x81, 0x99, 0xA4, 0xFE, 0xFF} {
						for b3 := 0x2F; b3 <= 0x3A; b3++ {
							buf[0], buf[1], buf[2], buf[3] = byte(b0), byte(b1), byte(b2), byte(b3)
							d.check(buf[:4])
							d.check(buf)
						}
					}
				}
			}
			// The whole BMP part of the four-byte space, 81 30 81 30 to
			// 84 39 FE 39.
			for b0 := 0x81; b0 <= 0x84; b0++ {
				for b1 := 0x30; b1 <= 0x39; b1++ {
					for b2 := 0x81; b2 <= 0xFE; b2++ {
						for b3 := 0x30; b3 <= 0x39; b3++ {
							buf[0], buf[1], buf[2], buf[3] = byte(b0), byte(b1), byte(b2), byte(b3)
							d.check(buf[:4])
						}
					}
				}
			}
			edges := []int{0x81, 0x84, 0x85, 0x90, 0xE3, 0xFE}
			seconds := []int{0x30, 0x39}
			if testing.Short() {
				edges, seconds = []int{0x84, 0xE3}, []int{0x31}
			}
			if name == "gbk" {
				edges = nil // the same decoder as gb18030: the rest suffices
			}
			for _, b0 := range edges {
				for _, b1 := range seconds {
					for b2 := range 256 {
						for b3 := range 256 {
							buf[0], buf[1], buf[2], buf[3] = byte(b0), byte(b1), byte(b2), byte(b3)
							d.check(buf[:4])
						}
					}
				}
			}
			d.done()
		})
	}
}

// interesting are the bytes random inputs are drawn from half of the time:
// lead and trail boundaries, the escape bytes, and ASCII syntax.
var interesting = []byte{
	0x00, 0x0E, 0x0F, 0x1B, '$', '(', '@', 'B', 'J', 'I', '0', '9', '"', '\'', '&', '<', '>', ';', '=', '\\', '/', '-', '~',
	0x21, 0x30, 0x39, 0x3F, 0x40, 0x41, 0x5C, 0x7E, 0x7F, 0x80, 0x81, 0x84, 0x8E, 0x8F, 0x90, 0x9F, 0xA0, 0xA1,
	0xA4, 0xC6, 0xC8, 0xDF, 0xE0, 0xE3, 0xEF, 0xF0, 0xF9, 0xFC, 0xFD, 0xFE, 0xFF,
}

// randomInput is a deterministic byte string for seed rng.
func randomInput(rng *rand.Rand, maxLen int) []byte {
	b := make([]byte, rng.IntN(maxLen+1))
	for i := range b {
		if rng.IntN(2) == 0 {
			b[i] = interesting[rng.IntN(len(interesting))]
		} else {
			b[i] = byte(rng.IntN(256))
		}
	}
	return b
}

func TestDecodeMatchesTheEncodingStandardOnRandomInput(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, name := range referenced {
		t.Run(name, func(t *testing.T) {
			d := newDiffer(t, name)
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			for range n {
				d.check(randomInput(rng, 40))
			}
			d.done()
		})
	}
}

// TestDecodeMatchesTheEncodingStandardOnLongInput crosses Decode's spans and
// chunks: the text and errors must not depend on where one ends.
func TestDecodeMatchesTheEncodingStandardOnLongInput(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 5
	}
	for _, name := range referenced {
		t.Run(name, func(t *testing.T) {
			d := newDiffer(t, name)
			rng := rand.New(rand.NewPCG(5, uint64(len(name))))
			for i := range n {
				src := randomInput(rng, 4*pieceSizes[1])
				if i%2 == 0 {
					// Mostly valid: real characters and ASCII, a few bad bytes.
					src = mostlyValid(rng, d.c, 2*pieceSizes[0]+pieceSizes[1]+pieceSizes[2])
				}
				d.check(src)
			}
			d.done()
		})
	}
}

// mostlyValid is about n bytes of c's text with an invalid byte now and then.
func mostlyValid(rng *rand.Rand, c *Charset, n int) []byte {
	var b []byte
	for len(b) < n {
		switch k := rng.IntN(100); {
		case k < 1:
			b = append(b, 0xFF, 0x81)
		case k < 2:
			// What x/text's GB18030 misreads without a U+FFFD, or decodes
			// to another character: only the trust check catches them.
			b = append(b, [][]byte{{0x81, 0x3C, 0x81, 0x30}, {0x81, 0x35, 0xF4, 0x37}, {0xA3, 0x3F, 0xB0, 0x39}}[rng.IntN(3)]...)
		case k < 30:
			b = append(b, " &q=<1>;\\"[rng.IntN(9)])
		default:
			r := rune(0x4E00 + rng.IntN(0x5000))
			if e, err := c.Encode(string(r), false); err == nil {
				b = append(b, e...)
			} else {
				b = append(b, byte('a'+rng.IntN(26)))
			}
		}
	}
	return b
}

// TestGB18030SequencesXTextMisreadsSilentlyAreCaught puts, into valid text,
// the sequences x/text's GB18030 decoder gets wrong without writing U+FFFD,
// where Decode trusts x/text's bulk pass unless it sees one of them.
func TestGB18030SequencesXTextMisreadsSilentlyAreCaught(t *testing.T) {
	for _, name := range []string{"gb18030", "gbk"} {
		t.Run(name, func(t *testing.T) {
			d := newDiffer(t, name)
			rng := rand.New(rand.NewPCG(41, 43))
			bad := [][]byte{{0x81, 0x3C, 0x81, 0x30}, {0x81, 0x35, 0xF4, 0x37}, {0xC4, 0x3F, 0xB0, 0x39}, {0xFE, 0x3A, 0xFE, 0x39}}
			for range 200 {
				var src []byte
				for len(src) < 3*pieceSizes[1] {
					if rng.IntN(500) == 0 {
						src = append(src, bad[rng.IntN(len(bad))]...)
						continue
					}
					e, err := d.c.Encode(string(rune(0x4E00+rng.IntN(0x5000))), false)
					if err != nil {
						e = []byte("=")
					}
					src = append(src, e...)
				}
				d.check(src)
			}
			d.done()
		})
	}
}
