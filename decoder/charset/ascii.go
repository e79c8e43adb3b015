package charset

import (
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// usASCII is the encoding of the IANA labels of US-ASCII that the Encoding
// Standard does not list ("us", "iso646-us", "csascii", ...; its own
// "us-ascii" and "ascii" are windows-1252, § 4.2): bytes 80-FF decode to
// U+FFFD and characters above U+007F cannot be encoded. x/text's only ASCII
// encoding is unexported in golang.org/x/text/encoding/ianaindex, which
// Lookup no longer links (lookup_labels.go); this is its twin, byte for
// byte, and a test compares the two on every byte and every BMP character.
var usASCII encoding.Encoding = asciiEncoding{}

type asciiEncoding struct{}

func (asciiEncoding) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: asciiDecoder{}}
}

func (asciiEncoding) NewEncoder() *encoding.Encoder {
	return &encoding.Encoder{Transformer: asciiEncoder{}}
}

func (asciiEncoding) String() string { return "US-ASCII" }

type asciiDecoder struct{ transform.NopResetter }

func (asciiDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for _, c := range src {
		if c >= utf8.RuneSelf {
			if nDst+len(replacement) > len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += copy(dst[nDst:], replacement)
			nSrc++
			continue
		}
		if nDst >= len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		dst[nDst] = c
		nDst++
		nSrc++
	}
	return nDst, nSrc, nil
}

type asciiEncoder struct{ transform.NopResetter }

func (asciiEncoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for _, c := range src {
		if c >= utf8.RuneSelf {
			// The error x/text's encoders give for a character outside
			// their repertoire: encoding.HTMLEscapeUnsupported and
			// ReplaceUnsupported recognise it by its Replacement method.
			return nDst, nSrc, asciiRepertoireError{}
		}
		if nDst >= len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		dst[nDst] = c
		nDst++
		nSrc++
	}
	return nDst, nSrc, nil
}

// asciiRepertoireError is x/text's repertoire error (unexported in
// golang.org/x/text/encoding/internal) for ASCII: its message, and
// encoding.ASCIISub as the byte that replaces the character.
type asciiRepertoireError struct{}

func (asciiRepertoireError) Error() string     { return "encoding: rune not supported by encoding." }
func (asciiRepertoireError) Replacement() byte { return encoding.ASCIISub }
