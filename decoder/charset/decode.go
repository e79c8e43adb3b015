package charset

import (
	"bytes"
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
// without errors are decoded in bulk. Only input that produced a U+FFFD is
// decoded again, in chunks of about 1 KB, and only the chunks holding a
// U+FFFD one character at a time, to locate each error and to give back
// the ASCII bytes x/text swallows.
func (c *Charset) Decode(src []byte) (string, []Invalid) {
	if c.name == "iso-2022-jp" {
		// Its decoder is this package's own and says where each error is:
		// one pass, whether or not there are errors.
		return decodeISO2022JP(src)
	}
	if isASCII(src) || c.utf8 && utf8.Valid(src) {
		return string(src), nil
	}
	if c.utf8 {
		return decodeUTF8(src)
	}
	dec := c.enc.NewDecoder()
	out, _, err := transform.Bytes(dec, src)
	if err == nil && !mayHaveReplacement(dec.Transformer, out) {
		// out is fresh and never written again: share it, as
		// strings.Builder does, rather than copy a megabyte.
		return unsafe.String(unsafe.SliceData(out), len(out)), nil
	}
	return c.decodeByChunk(src)
}

const chunkSize = 1024

// decodeByChunk decodes src in chunks that end just after an ASCII byte
// other than a digit. There every stateless decoder of the Encoding
// Standard is back in its initial state (the byte was a character, the
// trail of a pair, or was given back and read as a character; only
// GB18030's four-byte sequences have ASCII bytes, digits, inside), so each
// chunk decodes alone as it would in place, and a single bad byte costs the
// character-by-character pass over its chunk only.
func (c *Charset) decodeByChunk(src []byte) (string, []Invalid) {
	var (
		out strings.Builder
		bad []Invalid
	)
	out.Grow(len(src) * 3 / 2)
	dec := c.enc.NewDecoder()
	for pos := 0; pos < len(src); {
		end := chunkEnd(src, pos)
		chunk := src[pos:end]
		dec.Reset()
		o, _, err := transform.Bytes(dec, chunk)
		if err == nil && !bytes.Contains(o, []byte(replacement)) {
			out.Write(o)
		} else {
			s, b := c.decodeByCharacter(chunk)
			out.WriteString(s)
			for _, x := range b {
				x.Offset += pos
				bad = append(bad, x)
			}
		}
		pos = end
	}
	return out.String(), bad
}

// chunkEnd is the first offset at or after pos+chunkSize that follows an
// ASCII byte other than a digit, or len(src).
func chunkEnd(src []byte, pos int) int {
	for i := min(pos+chunkSize, len(src)); i < len(src); i++ {
		if b := src[i-1]; b < utf8.RuneSelf && (b < '0' || b > '9') {
			return i
		}
	}
	return len(src)
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

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// decodeByCharacter feeds the decoder one more byte at a time until it
// consumes a character, so that every U+FFFD it writes is tied to the bytes
// it stands for. The output buffer grows from zero bytes as well: a decoder
// given room for one character's bytes cannot consume a second one, even
// when an error at EOF settles several at once (GB18030's "81 30 81 2F").
// A U+FFFD can be real text only in the encodings that can encode it (UTF-8
// is handled apart; GB18030, and GBK which decodes as GB18030, encode it as 84 31 A4 37).
func (c *Charset) decodeByCharacter(src []byte) (string, []Invalid) {
	t := c.enc.NewDecoder()
	var (
		out strings.Builder
		bad []Invalid
		dst [utf8.UTFMax * 2]byte
	)
	out.Grow(len(src) * 3 / 2)
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
			bad = append(bad, Invalid{Offset: pos, Len: n})
		}
		out.Write(produced)
		pos += n
	}
	return out.String(), bad
}

// step decodes the first character of src: the fewest input bytes, and the
// smallest output room, with which t consumes anything. It returns 0 when t
// consumes nothing at all.
func step(t transform.Transformer, src, dst []byte) (int, []byte) {
	for k := 1; k <= len(src); k++ {
		atEOF := k == len(src)
		for room := 0; room <= len(dst); room++ {
			nDst, nSrc, err := t.Transform(dst[:room], src[:k], atEOF)
			if nSrc > 0 {
				return nSrc, dst[:nDst]
			}
			if err != transform.ErrShortDst {
				if err != transform.ErrShortSrc {
					return 0, nil
				}
				break
			}
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
func decodeUTF8(src []byte) (string, []Invalid) {
	var out strings.Builder
	var bad []Invalid
	out.Grow(len(src) + 8)
	for pos := 0; pos < len(src); {
		r, size := utf8.DecodeRune(src[pos:])
		if r != utf8.RuneError || size > 1 {
			out.Write(src[pos : pos+size])
			pos += size
			continue
		}
		n := maximalSubpart(src[pos:])
		bad = append(bad, Invalid{Offset: pos, Len: n})
		out.WriteString(replacement)
		pos += n
	}
	return out.String(), bad
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
