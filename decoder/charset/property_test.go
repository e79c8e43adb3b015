package charset

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// syntax are the ASCII bytes HTML, URLs, SQL and shells give meaning to.
// None of them can be a trail byte in any multibyte encoding here, so each
// must come out of Decode exactly where it went in.
const syntax = `"'&<>;=/-`

// asciiSyntax is syntax plus the backslash, which is a valid trail byte in
// Shift_JIS, Big5, GBK and EUC-KR (0x95 0x5C is U+8868) and so may vanish
// into a character, but must never appear from nowhere.
const asciiSyntax = syntax + `\`

func keep(b []byte, set string) []byte {
	var out []byte
	for _, c := range b {
		if strings.IndexByte(set, c) >= 0 {
			out = append(out, c)
		}
	}
	return out
}

// isSubsequence reports whether every byte of sub appears in s in order.
func isSubsequence(sub, s []byte) bool {
	for _, c := range sub {
		i := bytes.IndexByte(s, c)
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
	return true
}

func TestDecodeNeverTurnsNonASCIIIntoSyntaxNorSwallowsIt(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, name := range multibyte {
		t.Run(name, func(t *testing.T) {
			c := MustLookup(name)
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			for range n {
				src := randomInput(rng, 48)
				out, _ := c.Decode(src)
				got := keep([]byte(out), asciiSyntax)
				if in := keep(src, asciiSyntax); !isSubsequence(got, in) {
					t.Fatalf("%s Decode(% X) = %+q: the syntax characters %q out are not among the ASCII bytes %q in", name, src, out, got, in)
				}
				if name == "iso-2022-jp" && bytes.IndexByte(src, 0x1B) >= 0 {
					// In JIS X 0208 mode, 21-7E are halves of characters.
					continue
				}
				if in, out := keep(src, syntax), keep([]byte(out), syntax); !bytes.Equal(in, out) {
					t.Fatalf("%s Decode(% X): syntax bytes %q in but %q out", name, src, in, out)
				}
			}
		})
	}
}

func TestDecodeReportsSaneErrorsOnRandomInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for _, name := range multibyte {
		c := MustLookup(name)
		for range 2000 {
			src := randomInput(rng, 48)
			checkDecodeInvariants(t, c, src)
		}
	}
}
