package sniff

import "unicode/utf8"

// singleByte caches what a single-byte candidate makes of each byte, so
// that scoring needs no decoder: the bytes' validity and runes come from
// decoder/charset once, the first time the candidate is weighed.
type singleByte struct {
	valid  [256]bool
	runes  [256]rune
	glyphs [256]glyph
	// syms[k][b] is byte b's symbol in the candidate's k-th language.
	syms [][256]uint8
}

func (c *candidate) single() *singleByte {
	c.sbOnce.Do(func() {
		sb := &singleByte{syms: make([][256]uint8, len(c.alpha))}
		for b := range 256 {
			text, bad := c.c.Decode([]byte{byte(b)})
			r, size := utf8.DecodeRuneInString(text)
			sb.valid[b] = len(bad) == 0 && size == len(text)
			sb.runes[b] = r
			sb.glyphs[b] = glyphOf(r)
			for k, i := range c.alpha {
				if g := sb.glyphs[b]; g.flags&fWord != 0 {
					sb.syms[k][b] = alphaLangs[i].find(g.lower)
				}
			}
		}
		c.sb = sb
	})
	return c.sb
}

// scratch holds the buffers of one Sniff call.
type scratch struct {
	key     []byte
	decoded []string
	syms    []uint8
	text    textScorer
}

// scoreSingle scores a single-byte candidate; nbad counts invalid bytes.
func (c *candidate) scoreSingle(samples [][]byte, pri priors, sc *scratch) (score float64, nbad int) {
	sb := c.single()
	sc.key = sc.key[:0]
	gs := sc.text.gs[:0]
	for i, s := range samples {
		if i > 0 {
			gs = append(gs, glyphOf(' '))
		}
		for _, b := range s {
			if !sb.valid[b] {
				nbad++
			}
			sc.key = utf8.AppendRune(sc.key, sb.runes[b])
			gs = append(gs, sb.glyphs[b])
		}
		sc.key = append(sc.key, 0)
	}
	sc.text.gs = gs
	if nbad > 0 {
		return negInf, nbad
	}
	best := negInf
	for k, li := range c.alpha {
		syms := sc.syms[:0]
		for i, s := range samples {
			if i > 0 {
				syms = append(syms, 0)
			}
			for _, b := range s {
				syms = append(syms, sb.syms[k][b])
			}
		}
		sc.syms = syms
		l := &alphaLangs[li]
		best = max(best, pri.of(l.name)-l.cost(gs, syms))
	}
	return best + c.base, 0
}
