package charset

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"golang.org/x/text/transform"
)

// TestEncodingStreamsAsDecodeDecodes reads random input through
// Encoding().NewDecoder() one byte at a time, so that every sequence is cut
// at every place: the text must be Decode's. (Shift_JIS, Big5 and EUC-KR
// are left out: their streams keep x/text's swallowing of an ASCII trail
// byte, which only Decode gives back.)
func TestEncodingStreamsAsDecodeDecodes(t *testing.T) {
	for _, name := range []string{"euc-jp", "iso-2022-jp", "gbk", "gb18030", "windows-1252"} {
		t.Run(name, func(t *testing.T) {
			c := MustLookup(name)
			rng := rand.New(rand.NewPCG(17, uint64(len(name))))
			for range 3000 {
				src := randomInput(rng, 40)
				if name == "iso-2022-jp" {
					src = randomISO2022JP(rng, 20)
				}
				want, _ := c.Decode(src)
				r := transform.NewReader(iotest.OneByteReader(bytes.NewReader(src)), c.Encoding().NewDecoder())
				got, err := io.ReadAll(r)
				if err != nil || string(got) != want {
					t.Fatalf("%s streamed(% X) = %+q, %v; Decode gives %+q", name, src, got, err, want)
				}
			}
		})
	}
}

// randomISO2022JP strings together the pieces ISO-2022-JP text is made of,
// valid and broken: escapes, JIS X 0208 halves, katakana, SO/SI, syntax.
func randomISO2022JP(rng *rand.Rand, pieces int) []byte {
	parts := [][]byte{
		[]byte("\x1B(B"), []byte("\x1B(J"), []byte("\x1B(I"), []byte("\x1B$B"), []byte("\x1B$@"),
		[]byte("\x1B$"), []byte("\x1B("), []byte("\x1B"), []byte("\x1B$A"), {0x0E}, {0x0F},
		[]byte("<script>"), []byte("\\~"), []byte("\"'&;=/-"), []byte("F|K\\"), {0x30, 0x21}, {0x7F}, {0x80}, {0xFF},
	}
	var b []byte
	for range rng.IntN(pieces + 1) {
		if rng.IntN(4) == 0 {
			b = append(b, byte(0x21+rng.IntN(0x5E)))
		} else {
			b = append(b, parts[rng.IntN(len(parts))]...)
		}
	}
	return b
}

func TestDecodeMatchesTheEncodingStandardOnStructuredISO2022JP(t *testing.T) {
	d := newDiffer(t, "iso-2022-jp")
	rng := rand.New(rand.NewPCG(23, 29))
	n := 30000
	if testing.Short() {
		n = 3000
	}
	for range n {
		src := randomISO2022JP(rng, 16)
		d.check(src)
		checkDecodeInvariants(t, d.c, src)
	}
	d.done()
}
