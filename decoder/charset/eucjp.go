package charset

import (
	"unicode/utf8"

	"github.com/cgigate/cgigate/internal/lazy"
	"golang.org/x/text/encoding"
)

// x/text's EUC-JP decoder reads some invalid sequences differently from the
// Encoding Standard's EUC-JP decoder (§ 13.1.1): after 8E or 8F it replaces
// a byte outside the valid range with a second U+FFFD, and it swallows an
// ASCII byte that ends an invalid pair, where the standard gives it back.
// The wrapper checks the structure of each sequence itself and gives x/text
// only the well-formed ones: ASCII, 8E A1-DF (half-width katakana), A1-FE
// A1-FE (JIS X 0208) and 8F A1-FE A1-FE (JIS X 0212).

func fixEUCJP(enc encoding.Encoding) encoding.Encoding {
	return &patchedEncoding{
		Encoding: enc,
		decoder:  decoderOf(enc),
		scan:     scanEUCJP,
		// x/text writes U+FFFD wherever it departs from the standard here.
		trust:   always,
		encoder: encoderWithExtras(enc, &eucJPExtras),
	}
}

// eucJPExtras: the standard's EUC-JP encoder (§ 13.1.2) writes U+2212 MINUS
// SIGN as U+FF0D's A1 DD; x/text refuses it. (It also writes U+00A5 and
// U+203E as 5C and 7E, which decode to '\' and '~': those stay refused.
// x/text writes JIS X 0212 characters as 8F xx xx, which the standard's
// encoder never does but its decoder reads back: kept, it loses nothing.)
// Built on first use: a map literal is built at init.
var eucJPExtras = lazy.Value[map[rune][]byte]{New: func() map[rune][]byte { return map[rune][]byte{0x2212: {0xA1, 0xDD}} }}

func inA1FE(b byte) bool { return b >= 0xA1 && b != 0xFF }

func scanEUCJP(src []byte, atEOF bool) (n, size int, r rune) {
	for i := 0; i < len(src); {
		b := src[i]
		if b < utf8.RuneSelf {
			i++
			continue
		}
		if b != 0x8E && b != 0x8F && !inA1FE(b) {
			return i, 1, utf8.RuneError
		}
		if i+1 >= len(src) {
			return incomplete(i, 1, atEOF)
		}
		b1 := src[i+1]
		switch {
		case b == 0x8E && b1 >= 0xA1 && b1 <= 0xDF, b != 0x8E && b != 0x8F && inA1FE(b1):
			i += 2
		case b == 0x8F && inA1FE(b1):
			if i+2 >= len(src) {
				return incomplete(i, 2, atEOF)
			}
			if b2 := src[i+2]; !inA1FE(b2) {
				return i, 1 + errorSize(b2), utf8.RuneError
			}
			i += 3
		default:
			return i, errorSize(b1), utf8.RuneError
		}
	}
	return len(src), 0, 0
}
