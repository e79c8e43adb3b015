package charset

import "golang.org/x/text/encoding"

// The Encoding Standard's Shift_JIS decoder (§ 13.3.1) maps the user-defined
// area, lead bytes F0-F9 (pointers 8836-10715), to the Private Use Area
// U+E000-U+E757; x/text replaces those characters with U+FFFD. The wrapper
// decodes them by that arithmetic and leaves everything else to x/text.
//
// x/text also swallows an ASCII trail byte after a lead byte when the pair
// is unmapped, where the standard gives the byte back ("restore byte to
// ioQueue"); Decode's slow path, which runs whenever a U+FFFD appears, gives
// it back (Charset.restoreASCII).

func init() { fixes["shift_jis"] = fixShiftJIS }

func fixShiftJIS(enc encoding.Encoding) encoding.Encoding {
	return &patchedEncoding{
		Encoding: enc,
		decoder:  decoderOf(enc),
		scan:     scanShiftJIS,
		encoder:  encoderWithExtras(enc, func() map[rune][]byte { return shiftJISExtras }),
	}
}

// shiftJISExtras: the standard's encoder (§ 13.3.2) writes U+0080 as the
// byte 80, which its decoder reads back; x/text refuses it. (The standard
// also writes U+00A5 and U+203E as 5C and 7E, which decode to '\' and
// '~': those stay refused, since a non-ASCII character must not come back
// as ASCII syntax.)
var shiftJISExtras = map[rune][]byte{0x80: {0x80}}

func scanShiftJIS(src []byte, atEOF bool) (n, size int, r rune) {
	for i := 0; i < len(src); {
		b := src[i]
		if b <= 0x80 || b >= 0xA1 && b <= 0xDF || b >= 0xFD {
			i++ // single bytes, and the invalid ones x/text replaces alike
			continue
		}
		if i+1 >= len(src) {
			return incomplete(i, 1, atEOF)
		}
		if t := src[i+1]; b >= 0xF0 && b <= 0xF9 && (t >= 0x40 && t <= 0x7E || t >= 0x80 && t <= 0xFC) {
			offset := 0x41
			if t < 0x7F {
				offset = 0x40
			}
			pointer := (int(b)-0xC1)*188 + int(t) - offset
			return i, 2, rune(0xE000 - 8836 + pointer)
		}
		i += 2
	}
	return len(src), 0, 0
}
