package charset

import (
	"github.com/cgigate/cgigate/internal/lazy"
	"golang.org/x/text/encoding"
)

// Big5's index has characters at two pointers (港 is both B4 E4 and FD BB).
// The Encoding Standard's Big5 encoder (§ 12.1.2) writes the first pointer
// past the HKSCS-only rows (the last for six box-drawing and numeral
// characters); x/text's writes the other one for 27 characters. Both decode
// to the same character, but the wrapper writes what a browser sends.
// big5Encode (big5_encode.go) is generated from
// index-big5.txt by internal/genencode. The decoder is x/text's unchanged; Decode's slow path
// gives back the ASCII trail byte x/text swallows after an unmapped pair.

func fixBig5(enc encoding.Encoding) encoding.Encoding {
	return &patchedEncoding{
		Encoding: enc,
		decoder:  decoderOf(enc),
		encoder:  encoderWithExtras(enc, &big5Extras),
	}
}

var big5Extras = lazy.Value[map[rune][]byte]{New: func() map[rune][]byte { return extrasMap(big5Encode[:]) }}
