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
	// The state of each of c's languages as the words go by.
	type langState struct {
		ascii, high *[0x80]uint8 // symbols of the bytes below and from 0x80
		bigrams     string
		m           int // symbols in the language: bigrams' row length
		half        int // letter-pair costs so far, -1 once stopped
		pri, limit  float64
	}
	var (
		langs [maxLangs]langState
		alive = len(c.alpha)
	)
	for k, li := range c.alpha {
		l := &alphaLangs[li]
		p := pri.of(l.name)
		// score = pri + base - cost matters only if it reaches floor:
		// cost at most pri + base - floor.
		langs[k] = langState{ascii: &asciiSyms[li], high: &sb.syms[k], bigrams: l.bigrams, m: len(alphaLetters[li]) + 1, pri: p, limit: costLimit(p + c.base - floor)}
	}
	sp := splitter{gs: gs}
	fixed := 0.0
	for alive > 0 {
		w, ok := sp.next(&fixed)
		if !ok {
			break
		}
		word := bs[w.start:w.end]
		for k := range c.alpha {
			st := &langs[k]
			if st.half < 0 {
				continue // stopped
			}
			// wordHalves, with each byte's symbol looked up in place.
			half, prev := st.half, 0
			for _, b := range word {
				sym := 0
				if b < 0x80 {
					sym = int(st.ascii[b])
				} else {
					sym = int(st.high[b-0x80])
				}
				if sym == 0 {
					half += 2 * foreignLetter
				} else {
					half += digit(st.bigrams[prev*st.m+sym])
				}
				prev = sym
			}
			st.half = half + digit(st.bigrams[prev*st.m])
			if fixed+float64(st.half)/2 > st.limit {
				st.half = -1
				alive--
			}
		}
	}
	best := negInf
	for _, st := range langs[:len(c.alpha)] {
		if st.half >= 0 {
			best = max(best, st.pri-(fixed+float64(st.half)/2))
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
