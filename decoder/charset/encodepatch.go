package charset

import (
	"unicode/utf8"

	"github.com/cgigate/cgigate/internal/lazy"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// extraEncoder is x/text's encoder plus a few code points the Encoding
// Standard's index has and x/text's table lacks.
type extraEncoder struct {
	inner  transform.Transformer
	extras map[rune][]byte
}

// encodeFix is a code point whose two bytes x/text's encoder writes
// otherwise than the standard's (generated tables, in code point order).
type encodeFix struct {
	r rune
	b [2]byte
}

// extrasMap is the map extraEncoder looks fixes up in, built when an
// encoder is first made, not at init.
func extrasMap(fixes []encodeFix) map[rune][]byte {
	m := make(map[rune][]byte, len(fixes))
	for _, f := range fixes {
		m[f.r] = []byte{f.b[0], f.b[1]}
	}
	return m
}

func encoderWithExtras(enc encoding.Encoding, extras *lazy.Value[map[rune][]byte]) func() transform.Transformer {
	return func() transform.Transformer {
		return &extraEncoder{inner: enc.NewEncoder().Transformer, extras: extras.Get()}
	}
}

func (e *extraEncoder) Reset() { e.inner.Reset() }

func (e *extraEncoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		// The run before the next extra code point goes to x/text whole.
		run, extra := len(src)-nSrc, []byte(nil)
		for i := nSrc; i < len(src); {
			if src[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRune(src[i:])
			if b, ok := e.extras[r]; ok {
				run, extra = i-nSrc, b
				break
			}
			i += size
		}
		if run > 0 {
			end := nSrc + run
			d, s, err := e.inner.Transform(dst[nDst:], src[nSrc:end], atEOF || end < len(src))
			nDst, nSrc = nDst+d, nSrc+s
			if err != nil {
				return nDst, nSrc, err
			}
			if nSrc < end {
				// A complete run that x/text stopped short of: never report
				// success for bytes not consumed.
				return nDst, nSrc, transform.ErrShortDst
			}
		}
		if extra == nil {
			break
		}
		if nDst+len(extra) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += copy(dst[nDst:], extra)
		_, size := utf8.DecodeRune(src[nSrc:])
		nSrc += size
	}
	return nDst, nSrc, nil
}
