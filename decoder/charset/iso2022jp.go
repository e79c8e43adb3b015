package charset

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/transform"
)

// x/text's ISO-2022-JP decoder departs from the Encoding Standard's
// (§ 13.2.1) in ways that forge or lose text:
//
//   - it passes SO and SI (0E, 0F) through, which the standard calls errors;
//   - it decodes JIS X 0201 Roman (ESC ( J) 5C and 7E as '\' and '~' rather
//     than U+00A5 and U+203E;
//   - it ignores the output flag, so an escape sequence right after another
//     one is silently dropped: "<scr ESC $ B ESC ( B ipt>" becomes
//     "<script>" (UTR #36 § 3.6.2) where the standard gives '<scr' U+FFFD
//     'ipt>';
//   - after an invalid byte it loses its place, swallowing or misreading what
//     follows ("ESC $ B ! ESC ( B <script>" gives U+FFFD U+FFFD U+9996 ...
//     where the standard gives U+FFFD '<script>').
//
// So the state machine here is the standard's, byte for byte; the JIS X 0208
// table stays x/text's, reached through its EUC-JP decoder (a JIS X 0208
// pair in ISO-2022-JP is the EUC-JP pair with the high bits cleared). The
// encoder stays x/text's: Charset.Encode refuses the SO, SI and ESC that the
// standard's encoder refuses.

func init() { fixes["iso-2022-jp"] = fixISO2022JP }

func fixISO2022JP(enc encoding.Encoding) encoding.Encoding {
	return &patchedEncoding{Encoding: enc, decoder: newISO2022JPDecoder}
}

type jpMode uint8

const (
	jpASCII jpMode = iota
	jpRoman
	jpKatakana
	jpLead // JIS X 0208
)

type iso2022JPDecoder struct {
	mode    jpMode // the standard's "output state"
	outFlag bool   // the standard's "output flag": an escape sequence was the last thing read
	jis0208 transform.Transformer
	scratch [256]byte
	// bad, when set, receives each error as it is written, with offsets
	// into the src of the Transform call: Decode's one-pass error finder.
	bad *[]Invalid
}

// fail records an error of n bytes at offset at, when errors are wanted.
func (d *iso2022JPDecoder) fail(at, n int) {
	if d.bad != nil {
		*d.bad = append(*d.bad, Invalid{Offset: at, Len: n})
	}
}

func newISO2022JPDecoder() transform.Transformer {
	return &iso2022JPDecoder{jis0208: japanese.EUCJP.NewDecoder().Transformer}
}

func (d *iso2022JPDecoder) Reset() { d.mode, d.outFlag = jpASCII, false }

// Transform consumes only whole items: an escape sequence, a character, or
// the bytes of one error; the standard's transient states (trail byte,
// escape start, escape) never outlive a call, so Transform changes no state
// when it consumes nothing.
func (d *iso2022JPDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		b := src[nSrc]
		if b == 0x1B {
			size, mode, ok := escape(src[nSrc:], atEOF)
			if size == 0 {
				return nDst, nSrc, transform.ErrShortSrc
			}
			if ok && !d.outFlag {
				d.mode, d.outFlag = mode, true
				nSrc += size
				continue
			}
			if len(dst)-nDst < len(replacement) {
				return nDst, nSrc, transform.ErrShortDst
			}
			if ok {
				d.mode = mode // valid, but right after another escape: an error
			}
			d.outFlag = ok
			d.fail(nSrc, size)
			nDst += copy(dst[nDst:], replacement)
			nSrc += size
			continue
		}
		var r rune
		size := 1
		switch d.mode {
		case jpASCII:
			if b < utf8.RuneSelf && b != 0x0E && b != 0x0F {
				// A run of ASCII is copied whole.
				n := nSrc + 1
				for n < len(src) && n-nSrc < len(dst)-nDst && src[n] < utf8.RuneSelf && src[n] != 0x0E && src[n] != 0x0F && src[n] != 0x1B {
					n++
				}
				if nDst >= len(dst) {
					return nDst, nSrc, transform.ErrShortDst
				}
				nDst += copy(dst[nDst:], src[nSrc:n])
				nSrc, d.outFlag = n, false
				continue
			}
			r = utf8.RuneError
		case jpRoman:
			switch {
			case b == 0x5C:
				r = 0xA5
			case b == 0x7E:
				r = 0x203E
			case b < utf8.RuneSelf && b != 0x0E && b != 0x0F:
				r = rune(b)
			default:
				r = utf8.RuneError
			}
		case jpKatakana:
			if b >= 0x21 && b <= 0x5F {
				r = 0xFF61 - 0x21 + rune(b)
			} else {
				r = utf8.RuneError
			}
		case jpLead:
			if b < 0x21 || b > 0x7E {
				r = utf8.RuneError
				break
			}
			if nSrc+1 >= len(src) {
				if !atEOF {
					return nDst, nSrc, transform.ErrShortSrc
				}
				r = utf8.RuneError // a lead byte at the end
				break
			}
			if t := src[nSrc+1]; t < 0x21 || t > 0x7E {
				// ESC starts the next item; any other byte is lost with
				// the lead byte, as the standard's trail byte state says.
				r, size = utf8.RuneError, 2
				if t == 0x1B {
					size = 1
				}
				break
			}
			n, m, err := d.pairs(dst[nDst:], src[nSrc:], nSrc)
			nDst, nSrc = nDst+n, nSrc+m
			if m > 0 {
				d.outFlag = false
			}
			if err != nil {
				return nDst, nSrc, err
			}
			continue
		}
		if len(dst)-nDst < utf8.RuneLen(r) {
			return nDst, nSrc, transform.ErrShortDst
		}
		if r == utf8.RuneError {
			d.fail(nSrc, size)
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc += size
		d.outFlag = false
	}
	return nDst, nSrc, nil
}

// pairs decodes the run of JIS X 0208 pairs at the start of src (at offset
// base in Transform's src) through x/text's EUC-JP table; an unmapped pair
// is one U+FFFD for both bytes, as in the standard.
func (d *iso2022JPDecoder) pairs(dst, src []byte, base int) (nDst, nSrc int, err error) {
	n := 0
	for n+1 < len(src) && n+1 < len(d.scratch) && src[n] >= 0x21 && src[n] <= 0x7E && src[n+1] >= 0x21 && src[n+1] <= 0x7E {
		d.scratch[n], d.scratch[n+1] = src[n]|0x80, src[n+1]|0x80
		n += 2
	}
	nDst, nSrc, err = d.jis0208.Transform(dst, d.scratch[:n], true)
	if d.bad != nil && bytes.Contains(dst[:nDst], []byte(replacement)) {
		// Which pairs were unmapped: each decodes to U+FFFD alone.
		var one [utf8.UTFMax]byte
		for i := 0; i < nSrc; i += 2 {
			if k, _, _ := d.jis0208.Transform(one[:], d.scratch[i:i+2], true); string(one[:k]) == replacement {
				d.fail(base+i, 2)
			}
		}
	}
	return nDst, nSrc, err
}

// decodeISO2022JP decodes src in one pass with d recording every error;
// the standard's state machine here says where each one is.
func decodeISO2022JP(src []byte) (string, []Invalid) {
	d := newISO2022JPDecoder().(*iso2022JPDecoder)
	var bad []Invalid
	d.bad = &bad
	// No item writes more than 3 bytes per byte read (U+FFFD for one byte).
	dst := make([]byte, 3*len(src)+utf8.UTFMax)
	nDst, _, err := d.Transform(dst, src, true)
	if err != nil {
		panic("charset: iso-2022-jp output larger than bound: " + err.Error())
	}
	return unsafe.String(unsafe.SliceData(dst), nDst), bad
}

// escape reads the escape sequence at the start of src (src[0] is ESC). It
// returns how many bytes the item takes (0: more input needed), and, when
// the sequence is one of the four the standard knows, the mode it selects.
// A broken sequence is an error for the ESC alone: the standard gives the
// bytes after it back to the input.
func escape(src []byte, atEOF bool) (size int, mode jpMode, ok bool) {
	if len(src) < 3 && !atEOF && (len(src) < 2 || src[1] == 0x24 || src[1] == 0x28) {
		return 0, 0, false
	}
	if len(src) < 3 {
		return 1, 0, false
	}
	switch string(src[1:3]) {
	case "(B":
		return 3, jpASCII, true
	case "(J":
		return 3, jpRoman, true
	case "(I":
		return 3, jpKatakana, true
	case "$@", "$B":
		return 3, jpLead, true
	}
	return 1, 0, false
}
