package charset

import (
	"unicode/utf8"
	"unsafe"

	"github.com/cgigate/cgigate/internal/lazy"
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
// table stays x/text's, read once through its EUC-JP decoder (a JIS X 0208
// pair in ISO-2022-JP is the EUC-JP pair with the high bits cleared). The
// encoder stays x/text's: Charset.Encode refuses the SO, SI and ESC that the
// standard's encoder refuses.

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
	// bad, when set, receives each error as it is written, with offsets
	// into the src of the Transform call plus base: Decode's one-pass
	// error finder.
	bad  *invalidSink
	base int
}

// fail records an error of n bytes at offset at, when errors are wanted.
func (d *iso2022JPDecoder) fail(at, n int) {
	if d.bad != nil {
		d.bad.add(Invalid{Offset: d.base + at, Len: n})
	}
}

func newISO2022JPDecoder() transform.Transformer {
	return &iso2022JPDecoder{}
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
// base in Transform's src) with x/text's table; an unmapped pair is one
// U+FFFD for both bytes, as in the standard.
func (d *iso2022JPDecoder) pairs(dst, src []byte, base int) (nDst, nSrc int, err error) {
	table := jis0208.Get()
	for nSrc+1 < len(src) {
		lead, trail := src[nSrc], src[nSrc+1]
		if lead < 0x21 || lead > 0x7E || trail < 0x21 || trail > 0x7E {
			break
		}
		r := rune(table[int(lead-0x21)*94+int(trail-0x21)])
		if r == 0 {
			r = utf8.RuneError
		}
		if len(dst)-nDst < utf8.RuneLen(r) {
			return nDst, nSrc, transform.ErrShortDst
		}
		if r == utf8.RuneError {
			d.fail(base+nSrc, 2)
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc += 2
	}
	return nDst, nSrc, nil
}

// jis0208 is x/text's JIS X 0208 table, read once through its EUC-JP
// decoder (a JIS X 0208 pair is the EUC-JP pair with the high bits
// cleared): 94×94 code points, all in the BMP, 0 where unmapped.
var jis0208 = lazy.Value[*[94 * 94]uint16]{New: func() *[94 * 94]uint16 {
	var t [94 * 94]uint16
	dec := japanese.EUCJP.NewDecoder()
	for i := range t {
		s, _ := dec.Bytes([]byte{byte(i/94 + 0xA1), byte(i%94 + 0xA1)})
		if r, size := utf8.DecodeRune(s); size == len(s) && r != utf8.RuneError && r <= 0xFFFF {
			t[i] = uint16(r)
		}
	}
	return &t
}}

// decodeISO2022JP decodes src in one pass with d recording every error;
// the standard's state machine here says where each one is.
func decodeISO2022JP(src []byte, bad *invalidSink) string {
	d := newISO2022JPDecoder().(*iso2022JPDecoder)
	d.bad = bad
	// JIS X 0208 pairs grow by half; more only with katakana or errors.
	dst := make([]byte, len(src)+len(src)/2+2*utf8.UTFMax)
	nDst := 0
	for pos := 0; ; {
		d.base = pos
		n, m, err := d.Transform(dst[nDst:], src[pos:], true)
		nDst, pos = nDst+n, pos+m
		if err == nil {
			break
		}
		if err != transform.ErrShortDst {
			panic("charset: iso-2022-jp decoder: " + err.Error())
		}
		// Transform consumes whole items only, so it resumes.
		dst = append(dst, make([]byte, len(dst))...)
	}
	return unsafe.String(unsafe.SliceData(dst), nDst)
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
