package charset

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/transform"
)

const replacement = "\uFFFD"

// Decode turns src into text. Bytes that are invalid in c become one U+FFFD
// per error, as the Encoding Standard's decoders with error mode
// "replacement" do, and each is reported: nothing is dropped silently.
//
// The common case costs one pass: ASCII, valid UTF-8, and legacy text
// without errors are decoded in bulk, in spans of about 16 KB. Only a span
// whose output holds a U+FFFD is decoded again, in chunks of about 1 KB,
// and only the chunks holding a U+FFFD one character at a time, to locate
// each error and to give back the ASCII bytes x/text swallows.
func (c *Charset) Decode(src []byte) (string, []Invalid) {
	if c.name != "iso-2022-jp" && (isASCII(src) || c.utf8 && utf8.Valid(src)) {
		return string(src), nil
	}
	bad := invalidSink{keep: -1}
	s := c.decode(src, &bad)
	return s, bad.list
}

// decode is Decode for input that may hold errors, which go to bad.
func (c *Charset) decode(src []byte, bad *invalidSink) string {
	switch {
	case c.name == "iso-2022-jp":
		// Its decoder is this package's own and says where each error is:
		// one pass, whether or not there are errors.
		return decodeISO2022JP(src, bad)
	case c.utf8:
		return decodeUTF8(src, bad)
	}
	return c.decodeBySpan(src, bad)
}

// KeptInvalids is how many invalid sequences an Invalids locates.
const KeptInvalids = 3

// Invalids sums up the invalid sequences of one decoding in memory that
// does not grow with them: a megabyte of bad bytes is a count, not a
// megabyte of Invalid values.
type Invalids struct {
	N     int       // sequences replaced, each by one U+FFFD
	Bytes int       // input bytes those sequences held
	First []Invalid // the first of them, in order: at most KeptInvalids
}

// invalidSink receives the invalid sequences a decoding finds, in order,
// and keeps the first keep of them (all when keep is negative).
type invalidSink struct {
	keep     int
	list     []Invalid
	n, bytes int
}

func (s *invalidSink) add(x Invalid) {
	s.n++
	s.bytes += x.Len
	if s.keep < 0 || len(s.list) < s.keep {
		s.list = append(s.list, x)
	}
}

// Pieces end just after an ASCII byte other than a digit. There every
// stateless decoder of the Encoding Standard is back in its initial state
// (the byte was a character, the trail of a pair, or was given back and
// read as a character; only GB18030's four-byte sequences have ASCII
// bytes, digits, inside), so each piece decodes alone as it would in place.
//
// pieceSizes are the sizes Decode cuts its input into, largest first: a
// piece is decoded in bulk, and one whose output may hold a U+FFFD is
// decoded again in pieces of the next size, down to character by
// character in the smallest. A bad byte costs a pass over one piece of
// each size, not over a whole span character by character.
var pieceSizes = [...]int{2 << 10, 128, 16}

// decodeBySpan decodes src in pieces (see pieceSizes).
func (c *Charset) decodeBySpan(src []byte, bad *invalidSink) string {
	dec := c.pieceDecoder()
	out := make([]byte, 0, len(src)+len(src)/2+utf8.UTFMax)
	out = c.decodePieces(dec, out, bad, src, 0, 0)
	// out is never written again: share it, as strings.Builder does,
	// rather than copy a megabyte.
	return unsafe.String(unsafe.SliceData(out), len(out))
}

// pieceDecoder is a fresh decoder of c for decodePieces, without the
// encoding.Decoder around it that nothing here needs (one allocation
// fewer a call, a third of what decoding a short value costs beyond
// x/text). A patched decoder is made to probe: a piece it cannot trust is
// decoded again, smaller.
func (c *Charset) pieceDecoder() transform.Transformer {
	if e, ok := c.Encoding().(*patchedEncoding); ok {
		return e.transformer(true)
	}
	return c.Encoding().NewDecoder().Transformer
}

// decodePieces appends to out the decoding of src, which starts at offset
// base of the whole input, in pieces of pieceSizes[level], and to bad the
// invalid sequences it finds.
func (c *Charset) decodePieces(dec transform.Transformer, out []byte, bad *invalidSink, src []byte, base, level int) []byte {
	for pos := 0; pos < len(src); {
		end := pieceEnd(src, pos, pieceSizes[level])
		n0 := len(out)
		out = appendDecoded(dec, out, src[pos:end])
		if mayHaveReplacement(dec, out[n0:]) {
			out = out[:n0]
			if level+1 < len(pieceSizes) {
				out = c.decodePieces(dec, out, bad, src[pos:end], base+pos, level+1)
			} else {
				out = c.appendByCharacter(out, src[pos:end], base+pos, bad)
			}
		}
		pos = end
	}
	return out
}

// appendDecoded appends the decoding of src, a whole piece, to out.
func appendDecoded(dec transform.Transformer, out, src []byte) []byte {
	dec.Reset()
	for {
		n, m, err := dec.Transform(out[len(out):cap(out)], src, true)
		out, src = out[:len(out)+n], src[m:]
		if err != transform.ErrShortDst {
			// x/text decoders replace what they cannot decode: no other
			// error comes with atEOF.
			return out
		}
		out = slices.Grow(out, max(len(src), 2*utf8.UTFMax)+cap(out)/2)
	}
}

// pieceEnd is the first offset at or after pos+size that follows an ASCII
// byte other than a digit, or len(src).
func pieceEnd(src []byte, pos, size int) int {
	for i := min(pos+size, len(src)); i < len(src); i++ {
		if b := src[i-1]; b < utf8.RuneSelf && (b < '0' || b > '9') {
			return i
		}
	}
	return len(src)
}

// DecodeString is DecodeCounted for text held in a string: ASCII in an
// ASCII-compatible charset, and valid UTF-8 in UTF-8, come back as the
// same string, without a copy.
func (c *Charset) DecodeString(s string) (string, Invalids) {
	if c.name != "iso-2022-jp" && (c.utf8 && utf8.ValidString(s) || isASCII(s)) {
		return s, Invalids{}
	}
	return c.decodeCounted(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// DecodeCounted is Decode for input whose errors are reported rather than
// listed: it sums them up as an Invalids, in memory that does not grow
// with their number.
func (c *Charset) DecodeCounted(src []byte) (string, Invalids) {
	if c.name != "iso-2022-jp" && (isASCII(src) || c.utf8 && utf8.Valid(src)) {
		return string(src), Invalids{}
	}
	return c.decodeCounted(src)
}

func (c *Charset) decodeCounted(src []byte) (string, Invalids) {
	bad := invalidSink{keep: KeptInvalids}
	out := c.decode(src, &bad)
	return out, Invalids{N: bad.n, Bytes: bad.bytes, First: bad.list}
}

// DecodeStrict is Decode that refuses any invalid byte, naming the first.
func (c *Charset) DecodeStrict(src []byte) (string, error) {
	s, bad := c.Decode(src)
	if len(bad) > 0 {
		b := bad[0]
		return "", &InvalidError{Charset: c.name, Offset: b.Offset, Bytes: bytes.Clone(src[b.Offset : b.Offset+b.Len])}
	}
	return s, nil
}

// Valid reports whether src decodes in c without a single error.
func (c *Charset) Valid(src []byte) bool {
	_, bad := c.Decode(src)
	return len(bad) == 0
}

// isASCII reports whether every byte of b is below 0x80.
func isASCII[T string | []byte](b T) bool {
	for i := 0; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendByCharacter appends the decoding of src, which starts at offset base
// of the whole input, to out, character by character: it steps the decoder
// through src with little room for its
// output, so that every U+FFFD it writes is tied to the bytes it stands for
// (see step), even when an error at EOF settles several characters at once
// (GB18030's "81 30 81 2F").
// A U+FFFD can be real text only in the encodings that can encode it (UTF-8
// is handled apart; GB18030, and GBK which decodes as GB18030, encode it as 84 31 A4 37).
func (c *Charset) appendByCharacter(out, src []byte, base int, bad *invalidSink) []byte {
	t := c.Encoding().NewDecoder()
	var dst [utf8.UTFMax * 2]byte
	for pos := 0; pos < len(src); {
		n, produced := step(t, src[pos:], dst[:])
		if n == 0 {
			// A decoder that consumes nothing and reports no short input
			// would loop forever: call the byte invalid.
			n, produced = 1, []byte(replacement)
		}
		if bytes.Contains(produced, []byte(replacement)) && !c.encodesReplacement(src[pos:pos+n]) {
			if c.restoreASCII && n == 2 && src[pos+1] < utf8.RuneSelf && string(produced) == replacement {
				// x/text swallowed the ASCII trail byte: give it back.
				n = 1
				t.Reset()
			}
			bad.add(Invalid{Offset: base + pos, Len: n})
		}
		out = append(out, produced...)
		pos += n
	}
	return out
}

// step decodes the start of src up to and including its first U+FFFD, if
// that is its first character. Room for three bytes of output is what makes
// it exact: a U+FFFD takes all three, so it never shares a step with
// another character, while runs of valid short characters may. Room for
// four is tried when the first character needs it (a supplementary code
// point, Big5's two-code-point pairs), which a U+FFFD never does. It
// returns 0 when t consumes nothing at all.
func step(t transform.Transformer, src, dst []byte) (int, []byte) {
	for _, k := range [...]int{min(8, len(src)), len(src)} {
		atEOF := k == len(src)
		for _, room := range [...]int{len(replacement), utf8.UTFMax, len(dst)} {
			nDst, nSrc, err := t.Transform(dst[:room], src[:k], atEOF)
			if nSrc > 0 {
				return nSrc, dst[:nDst]
			}
			if err != transform.ErrShortDst {
				break
			}
		}
		if atEOF {
			break
		}
	}
	return 0, nil
}

func (c *Charset) encodesReplacement(b []byte) bool {
	return (c.name == "gb18030" || c.name == "gbk") && string(b) == "\x84\x31\xA4\x37"
}

// decodeUTF8 replaces each maximal subpart of an ill-formed sequence with one
// U+FFFD, as the Encoding Standard's UTF-8 decoder (§ 8.1.1) and Unicode
// § 3.9 (U+FFFD substitution of maximal subparts) require. Overlong forms,
// surrogates and code points above U+10FFFF are never decoded.
func decodeUTF8(src []byte, bad *invalidSink) string {
	var out strings.Builder
	out.Grow(len(src) + 8)
	for pos := 0; pos < len(src); {
		r, size := utf8.DecodeRune(src[pos:])
		if r != utf8.RuneError || size > 1 {
			out.Write(src[pos : pos+size])
			pos += size
			continue
		}
		n := maximalSubpart(src[pos:])
		bad.add(Invalid{Offset: pos, Len: n})
		out.WriteString(replacement)
		pos += n
	}
	return out.String()
}

// maximalSubpart is the length of the longest prefix of b that starts a
// well-formed UTF-8 sequence, at least 1. b is known to be ill-formed.
func maximalSubpart(b []byte) int {
	lead := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		need = 1
	case lead == 0xE0:
		need, lo = 2, 0xA0
	case lead >= 0xE1 && lead <= 0xEC, lead == 0xEE, lead == 0xEF:
		need = 2
	case lead == 0xED:
		need, hi = 2, 0x9F
	case lead == 0xF0:
		need, lo = 3, 0x90
	case lead >= 0xF1 && lead <= 0xF3:
		need = 3
	case lead == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}
