package sniff

import (
	"bytes"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/transform"
)

// scratch holds the buffers of one Sniff call. Sniff takes one from
// scratchPool and gives it back, so that a process sniffing many requests
// (FastCGI) or a long form does not grow them afresh for each candidate.
type scratch struct {
	key     []byte
	decoded []string
	syms    []uint8
	text    textScorer
	// bytes are the samples a single-byte candidate scores, joined by
	// spaces (joined), when there are several.
	bytes []byte
	// out holds the samples as the candidate being evaluated decodes
	// them; decoded's strings point into it.
	out []byte
	// ends are the offsets in out where each sample ends.
	ends []int
	// decoders are the candidates' decoders, by candidate index, made on
	// first use and reset before each: making one allocates, and a short
	// value is decoded in less time than that takes.
	decoders [len(candidateList)]transform.Transformer
	outcomes []outcome
	groupOf  []int
	// texts are the distinct decodings of the samples seen in one Sniff
	// call, their keys in textKeys. keyClass is -1 when sc.key holds the
	// text of the candidate just evaluated, else the reading of the
	// single-byte candidate just scored, whose text is looked up from it
	// (classText) if Sniff counts it.
	texts    []text
	textKeys []byte
	// readable are the places in texts of those a reading's text can
	// be: of one character a byte of the samples, as every reading's
	// is, or too long to tell (see classText).
	readable []int
	keyClass int
	// readings are the single-byte candidates' distinct readings of the
	// samples in one call, memo what each language makes of each (see
	// scoreSingle), highs the distinct bytes 0x80 and up of the samples
	// when highsKnown.
	readings []reading
	// readingOf is the place in readings, plus one, of the reading
	// named by its first candidate (see classOf), 0 when not yet seen.
	readingOf  [len(candidateList)]int8
	memo       [][len(alphaLangs)]langMemo
	highs      []uint8
	highsKnown bool
	// langPri is each alphabetic language's prior in this call, by place
	// in alphaLangs (setPriors).
	langPri [len(alphaLangs)]float64
	// order, ranked, counts and present serve evaluationOrder.
	order   []int
	ranked  []rankedCandidate
	counts  [0x80]int32
	present []uint8
	// rankLetters are the letters of present in one candidate.
	rankLetters []uint8
	// exp remembers the math of the groups' weights.
	exp expCache
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// decoder is c's decoder, reset.
func (sc *scratch) decoder(c *candidate) transform.Transformer {
	if c.index < 0 {
		// A candidate a hint added: its decoder serves one call.
		return c.c.Encoding().NewDecoder()
	}
	d := sc.decoders[c.index]
	if d == nil {
		d = c.c.Encoding().NewDecoder()
		sc.decoders[c.index] = d
	}
	d.Reset()
	return d
}

// gbkReplacement is the one sequence GBK (decoded as GB18030) turns into
// U+FFFD without an error: GB18030 encodes U+FFFD as 84 31 A4 37.
const gbkReplacement = "\x84\x31\xA4\x37"

// decodeClean decodes the samples in c into sc.decoded and reports whether
// they decode without an error. It decodes with c's decoder in one pass,
// where charset.DecodeCounted would locate each error besides: a candidate
// with an error is out of the running, and the number of its errors
// matters only when every candidate has some (see countErrors). Every
// decoder of decoder/charset writes a U+FFFD for each error, and only
// GB18030 and GBK can also encode one, as gbkReplacement: the output is
// clean when it holds no U+FFFD, or only what those bytes stand for, and
// it is then charset.Decode's output.
func (sc *scratch) decodeClean(c *candidate, samples [][]byte) bool {
	if c.malformed != nil {
		// Most values in no multibyte encoding are malformed in it: found
		// so, they need no decoder.
		for _, s := range samples {
			if c.malformed(s) {
				return false
			}
		}
	}
	sc.out, sc.ends = sc.out[:0], sc.ends[:0]
	suspect := false
	for _, s := range samples {
		if isASCII(s) && c.name != "iso-2022-jp" {
			sc.out = append(sc.out, s...)
		} else if (c.name == "gbk" || c.name == "gb18030") && bytes.Contains(s, []byte(gbkReplacement)) {
			sc.out = appendDecoded(sc.decoder(c), sc.out, s)
			suspect = suspect || bytes.Contains(sc.out[sc.lastEnd():], []byte("\uFFFD"))
		} else {
			var bad bool
			if sc.out, bad = appendDecodedUntilBad(sc.decoder(c), sc.out, s); bad || suspect {
				return false
			}
		}
		sc.ends = append(sc.ends, len(sc.out))
	}
	if suspect {
		// A U+FFFD beside GB18030's encoding of one: let the exact decoder
		// tell whether it stands for an error.
		return sc.decodeExact(c, samples) == 0
	}
	sc.decoded = sc.decoded[:0]
	start := 0
	for _, end := range sc.ends {
		// sc.out is not written again before the strings are dropped:
		// Sniff keeps none of them beyond its call.
		sc.decoded = append(sc.decoded, unsafe.String(unsafe.SliceData(sc.out[start:end]), end-start))
		start = end
	}
	return true
}

func (sc *scratch) lastEnd() int {
	if len(sc.ends) == 0 {
		return 0
	}
	return sc.ends[len(sc.ends)-1]
}

// decodeExact decodes the samples in c with decoder/charset, into
// sc.decoded, and counts the errors.
func (sc *scratch) decodeExact(c *candidate, samples [][]byte) (nbad int) {
	sc.decoded = sc.decoded[:0]
	for _, s := range samples {
		// Counted, not listed: a sample of bad bytes would cost a list
		// of them in every candidate.
		text, bad := c.c.DecodeCounted(s)
		sc.decoded = append(sc.decoded, text)
		nbad += bad.N
	}
	return nbad
}

// appendDecoded appends the decoding of src by dec to out, with room for
// the usual growth made at once.
func appendDecoded(dec transform.Transformer, out, src []byte) []byte {
	// x/text decoders replace what they cannot decode: no error comes
	// with the whole input.
	out, _, _ = transform.Append(dec, slices.Grow(out, len(src)+len(src)/2+utf8.UTFMax), src)
	return out
}

// decodeChunk is how much of a sample a decoder reads before its output is
// looked at: a candidate whose first error comes early stops there, not
// at the end of a long sample (valid UTF-8 read as Shift_JIS, or Korean
// read as Big5, mostly errs within a few characters).
const decodeChunk = 256

// appendDecodedUntilBad is appendDecoded, but it stops, bad, after the
// first chunk of src whose output holds a U+FFFD. A chunk's end may cut a
// sequence: the decoder leaves it (transform.ErrShortSrc) for the next
// chunk, so the output is what one pass writes (TestDecodeCleanByChunks).
func appendDecodedUntilBad(dec transform.Transformer, out, src []byte) (_ []byte, bad bool) {
	for len(src) > 0 {
		n := min(len(src), decodeChunk)
		atEOF := n == len(src)
		// A byte decodes to at most 3 bytes of UTF-8 (a halfwidth
		// katakana), a pair to at most 4 (Big5's two-character pairs).
		out = slices.Grow(out, 3*n+utf8.UTFMax)
		start := len(out)
		nDst, nSrc, err := dec.Transform(out[start:cap(out)], src[:n], atEOF)
		out, src = out[:start+nDst], src[nSrc:]
		if bytes.Contains(out[start:], []byte("\uFFFD")) {
			return out, true
		}
		if err != nil && !(err == transform.ErrShortSrc && !atEOF && nSrc > 0) {
			// Anything but a sequence cut at the chunk's end: the rest
			// in one pass, as appendDecoded decodes.
			out = appendDecoded(dec, out, src)
			return out, bytes.Contains(out[start:], []byte("\uFFFD"))
		}
	}
	return out, false
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
