package sniff

import (
	"math"
	"unicode/utf8"
)

// singleByte is what a single-byte candidate makes of each byte 0x80..0xFF,
// so that scoring needs no decoder; every candidate reads the ASCII bytes
// as ASCII (Encoding Standard § 9.1 "single-byte decoder": the windows-125x,
// KOI8 and ISO-8859 indexes start at 0x80), which asciiGlyphs and asciiSyms
// hold once for all. The tables are generated data (single_tables.go, from
// decoder/charset's decoders by TestSingleByteTables with
// -write-single-tables): a fresh CGI process builds nothing to sniff.
type singleByte struct {
	valid  [0x80]bool // false where the encoding leaves the byte unassigned
	runes  [0x80]rune // U+FFFD where invalid
	glyphs [0x80]glyph
	// syms[k][b-0x80] is byte b's symbol in the candidate's k-th language
	// (alphaLangs[c.alpha[k]]).
	syms [][0x80]uint8
}

// scoreSingle scores a single-byte candidate; clean is false when a byte
// is invalid. A score below floor is not worth knowing: it is then -Inf
// (see evaluate).
func (c *candidate) scoreSingle(samples [][]byte, pri priors, sc *scratch, floor float64) (score float64, clean bool) {
	sb := c.sb
	nbad := 0
	gs, bs := sc.text.gs[:0], sc.bytes[:0]
	for i, s := range samples {
		if i > 0 {
			gs = append(gs, asciiGlyphs[' '])
			bs = append(bs, ' ')
		}
		for _, b := range s {
			g := asciiGlyphs[b&0x7F]
			if b >= 0x80 {
				h := b - 0x80
				if !sb.valid[h] {
					nbad++
				}
				g = sb.glyphs[h]
			}
			if len(gs) < scoreLimit {
				gs = append(gs, g)
				bs = append(bs, b)
			}
		}
	}
	sc.text.gs, sc.bytes = gs, bs
	if nbad > 0 {
		return negInf, false
	}
	fixed, words := split(gs, sc.text.words[:0])
	sc.text.words = words
	best := negInf
	for k, li := range c.alpha {
		l := langOf(li)
		// score = pri + base - cost matters only if it reaches floor and
		// the best language so far: cost at most pri + base - that.
		p := pri.of(l.name)
		bar := max(floor, best+c.base)
		best = max(best, p-c.bytesCost(sc, &l, k, words, fixed, costLimit(p+c.base-bar)))
	}
	score = best + c.base
	if score >= floor {
		// The decoded text groups c with the candidates that read the
		// bytes alike; Sniff reads it only for a score that counts.
		sc.key = c.appendKey(sc.key[:0], samples)
	}
	return score, true
}

// bytesCost is lettersCost for the bytes in sc.bytes, as c's k-th language
// l reads them: each word's symbols are looked up as it is scored, so that
// a language pruned early looks up no more.
func (c *candidate) bytesCost(sc *scratch, l *lang, k int, words []span, fixed, limit float64) float64 {
	high := &c.sb.syms[k]
	half := 0
	for _, w := range words {
		if fixed+float64(half)/2 > limit {
			return math.Inf(1)
		}
		syms := sc.syms[:0]
		for _, b := range sc.bytes[w.start:w.end] {
			if b < 0x80 {
				syms = append(syms, l.ascii[b])
			} else {
				syms = append(syms, high[b-0x80])
			}
		}
		sc.syms = syms
		half += l.wordHalves(syms)
	}
	return fixed + float64(half)/2
}

// appendKey appends the samples as c decodes them, each ended by a NUL
// (joinKey's form).
func (c *candidate) appendKey(key []byte, samples [][]byte) []byte {
	for _, s := range samples {
		for _, b := range s {
			if b < 0x80 {
				key = append(key, b)
			} else {
				key = utf8.AppendRune(key, c.sb.runes[b-0x80])
			}
		}
		key = append(key, 0)
	}
	return key
}
