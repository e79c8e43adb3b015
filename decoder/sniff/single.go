package sniff

import (
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

// maxLangs bounds the languages of one candidate.
const maxLangs = 12

// scoreSingle scores a single-byte candidate; clean is false when a byte
// is invalid. A score below floor is not worth knowing: it is then -Inf
// (see evaluate).
//
// Its languages score the text together, word by word, each stopping once
// it costs more than it may (see lettersCost), and the candidate stops
// when they all have: a paragraph in another charset is given up after a
// few words.
func (c *candidate) scoreSingle(samples [][]byte, pri priors, sc *scratch, floor float64) (score float64, clean bool) {
	sb := c.sb
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
					return negInf, false
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
	var (
		langs [maxLangs]lang
		pris  [maxLangs]float64
		limit [maxLangs]float64
		half  [maxLangs]int
		alive = len(c.alpha)
	)
	for k, li := range c.alpha {
		langs[k] = langOf(li)
		pris[k] = pri.of(langs[k].name)
		// score = pri + base - cost matters only if it reaches floor:
		// cost at most pri + base - floor.
		limit[k] = costLimit(pris[k] + c.base - floor)
	}
	sp := splitter{gs: gs}
	fixed := 0.0
	for alive > 0 {
		w, ok := sp.next(&fixed)
		if !ok {
			break
		}
		for k := range c.alpha {
			if half[k] < 0 {
				continue // stopped
			}
			l := &langs[k]
			half[k] += l.wordHalves(c.symbols(sc, l, k, w))
			if fixed+float64(half[k])/2 > limit[k] {
				half[k] = -1
				alive--
			}
		}
	}
	best := negInf
	for k := range c.alpha {
		if half[k] >= 0 {
			best = max(best, pris[k]-(fixed+float64(half[k])/2))
		}
	}
	score = best + c.base
	if score >= floor {
		// The decoded text groups c with the candidates that read the
		// bytes alike; Sniff reads it only for a score that counts.
		sc.key = c.appendKey(sc.key[:0], samples)
	}
	return score, true
}

// symbols are the symbols of the letters of word w of sc.bytes in c's k-th
// language l.
func (c *candidate) symbols(sc *scratch, l *lang, k int, w span) []uint8 {
	high := &c.sb.syms[k]
	syms := sc.syms[:0]
	for _, b := range sc.bytes[w.start:w.end] {
		if b < 0x80 {
			syms = append(syms, l.ascii[b])
		} else {
			syms = append(syms, high[b-0x80])
		}
	}
	sc.syms = syms
	return syms
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
