package charset

import (
	"github.com/cgigate/cgigate/internal/lazy"
	"golang.org/x/text/encoding"
)

// windows-1252 in the Encoding Standard (index-windows-1252.txt, which the
// "latin1", "ascii" and "iso-8859-1" labels share, § 4.2) maps the five
// bytes 81 8D 8F 90 9D to the C1 controls U+0081 U+008D U+008F U+0090
// U+009D; x/text decodes them to U+FFFD and so loses them. The wrapper gives
// them back, and encodes those five code points to their bytes again.

func fixWindows1252(enc encoding.Encoding) encoding.Encoding {
	return &patchedEncoding{
		Encoding: enc,
		decoder:  decoderOf(enc),
		scan:     scanWindows1252,
		// x/text writes U+FFFD for the five bytes and nowhere else.
		trust:   always,
		encoder: encoderWithExtras(enc, &windows1252C1),
	}
}

// windows1252C1 are the code points x/text's windows-1252 lacks, each its
// own byte; the map is built on first use, not at init.
var windows1252C1 = lazy.Value[map[rune][]byte]{New: func() map[rune][]byte {
	return map[rune][]byte{0x81: {0x81}, 0x8D: {0x8D}, 0x8F: {0x8F}, 0x90: {0x90}, 0x9D: {0x9D}}
}}

func isWindows1252C1(b byte) bool {
	return b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D
}

func scanWindows1252(src []byte, _ bool) (n, size int, r rune) {
	for i, b := range src {
		if b >= 0x81 && isWindows1252C1(b) {
			return i, 1, rune(b)
		}
	}
	return len(src), 0, 0
}
