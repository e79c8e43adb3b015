package charset

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// A scanner reads a stateless multibyte encoding the way the Encoding
// Standard's decoder does and tells which bytes x/text's own decoder gets
// right. It returns n, the length of the prefix of src that x/text decodes as
// the standard does, and then either the size of the sequence at src[n:] and
// the code point it decodes to (utf8.RuneError for an error), or size 0 when
// src[n:] is empty or an incomplete sequence that needs more input (an
// incomplete sequence at EOF is an error, so size is never 0 then).
//
// The scanner only compares bytes: the tables stay in x/text.
type scanner func(src []byte, atEOF bool) (n, size int, r rune)

// patched is a decoder that gives x/text's decoder every run of bytes it
// decodes right and decodes the few sequences between those runs itself.
//
// With trust set, x/text first decodes src whole, and the scan runs only
// when its output holds a U+FFFD or trust says x/text may have gone wrong
// without one: valid text costs no scan.
type patched struct {
	inner transform.Transformer
	scan  scanner
	trust truster
	// dirty is set once the output may hold a U+FFFD; while it is unset,
	// Decode need not look for one.
	dirty bool
	// probe is set by Decode, which decodes again, in smaller pieces, any
	// piece that comes out dirty: x/text's output it cannot trust is then
	// only marked dirty, not mended by the scan, whose work would be
	// thrown away.
	probe bool
}

// A truster reports whether x/text's decoding out of src, holding no
// U+FFFD, is the standard's. nil: x/text never departs silently.
type truster func(src, out []byte) bool

// always is the truster of the decoders that write U+FFFD wherever they
// depart from the standard.
func always([]byte, []byte) bool { return true }

func (p *patched) Reset() { p.inner.Reset(); p.dirty = false }

func (p *patched) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if p.trust != nil {
		d, s, err := p.inner.Transform(dst, src, atEOF)
		if !bytes.Contains(dst[:d], []byte(replacement)) && p.trust(src[:s], dst[:d]) {
			return d, s, err
		}
		if p.probe {
			p.dirty = true
			return d, s, err
		}
		p.inner.Reset()
	}
	p.dirty = true
	for {
		n, size, r := p.scan(src[nSrc:], atEOF)
		if n > 0 {
			d, s, err := p.inner.Transform(dst[nDst:], src[nSrc:nSrc+n], true)
			nDst, nSrc = nDst+d, nSrc+s
			if err != nil {
				return nDst, nSrc, err
			}
			if s < n {
				// Cannot happen with complete sequences and atEOF; refuse
				// to loop if x/text ever stops early anyway.
				return nDst, nSrc, transform.ErrShortDst
			}
		}
		if size == 0 {
			if nSrc < len(src) {
				return nDst, nSrc, transform.ErrShortSrc
			}
			return nDst, nSrc, nil
		}
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc += size
	}
}

// patchedEncoding is an x/text encoding whose decoder is patched; its
// encoder is x/text's, or enc's when set.
type patchedEncoding struct {
	encoding.Encoding                              // supplies the encoder
	decoder           func() transform.Transformer // the decoder to patch
	scan              scanner                      // nil: decoder is the whole fix
	trust             truster                      // see patched
	encoder           func() transform.Transformer // nil: Encoding's encoder
}

func (e *patchedEncoding) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: e.transformer(false)}
}

// transformer is a fresh decoder: e.decoder's, behind the scan when e has
// one, which probes when probe is set (see patched.probe).
func (e *patchedEncoding) transformer(probe bool) transform.Transformer {
	if e.scan == nil {
		return e.decoder()
	}
	return &patched{inner: e.decoder(), scan: e.scan, trust: e.trust, probe: probe}
}

func (e *patchedEncoding) NewEncoder() *encoding.Encoder {
	if e.encoder == nil {
		return e.Encoding.NewEncoder()
	}
	return &encoding.Encoder{Transformer: e.encoder()}
}

// mayHaveReplacement reports whether t's output so far may hold a U+FFFD;
// out is that output, searched when t cannot say.
func mayHaveReplacement(t transform.Transformer, out []byte) bool {
	if p, ok := t.(*patched); ok && p.trust != nil {
		return p.dirty
	}
	return bytes.Contains(out, []byte(replacement))
}

// decoderOf is the decoder factory of an x/text encoding.
func decoderOf(enc encoding.Encoding) func() transform.Transformer {
	return func() transform.Transformer { return enc.NewDecoder().Transformer }
}

// errorSize is the size of the invalid sequence a lead byte starts when the
// byte after it, next, ends it: the Encoding Standard gives an ASCII byte
// back to the input ("restore byte to ioQueue") and consumes any other.
func errorSize(next byte) int {
	if next < utf8.RuneSelf {
		return 1
	}
	return 2
}
