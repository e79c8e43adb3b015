package sniff

import (
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder/charset"
)

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
		ascii := asciiTables()
		for b := range 0x80 {
			// Every candidate decodes ASCII as ASCII (Encoding Standard
			// § 9.1 "single-byte decoder" and the windows-125x, KOI8 and
			// ISO-8859 indexes start at 0x80).
			sb.runes[b], sb.valid[b], sb.glyphs[b] = rune(b), true, ascii.glyphs[b]
			for k, i := range c.alpha {
				sb.syms[k][b] = ascii.syms[i][b]
			}
		}
		// One decode of the 128 high bytes: each is one character, or one
		// U+FFFD and one Invalid when the encoding leaves it unassigned.
		var high [0x80]byte
		for b := range high {
			high[b] = byte(0x80 + b)
		}
		text, bad := c.c.Decode(high[:])
		runes := []rune(text)
		for b := 0x80; b < 256; b++ {
			if len(runes) == 0x80 {
				sb.runes[b] = runes[b-0x80]
				sb.valid[b] = !slices.ContainsFunc(bad, func(x charset.Invalid) bool { return x.Offset <= b-0x80 && b-0x80 < x.Offset+x.Len })
			} else { // not one character a byte: decode byte by byte
				t, bad := c.c.Decode([]byte{byte(b)})
				r, size := utf8.DecodeRuneInString(t)
				sb.runes[b], sb.valid[b] = r, len(bad) == 0 && size == len(t)
			}
			g := glyphOf(sb.runes[b])
			sb.glyphs[b] = g
			if g.flags&fWord != 0 {
				for k, i := range c.alpha {
					sb.syms[k][b] = alphaLangs[i].find(g.lower)
				}
			}
		}
		c.sb = sb
	})
	return c.sb
}

// asciiTable is what every single-byte candidate makes of the ASCII bytes.
type asciiTable struct {
	glyphs [0x80]glyph
	syms   [len(alphaLangs)][0x80]uint8
}

var asciiTables = sync.OnceValue(func() *asciiTable {
	t := &asciiTable{}
	for b := range 0x80 {
		t.glyphs[b] = glyphOf(rune(b))
		if t.glyphs[b].flags&fWord != 0 {
			for i := range alphaLangs {
				t.syms[i][b] = alphaLangs[i].find(t.glyphs[b].lower)
			}
		}
	}
	return t
})

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
			if len(gs) < scoreLimit {
				gs = append(gs, sb.glyphs[b])
			}
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
				if len(syms) == len(gs) {
					break
				}
				syms = append(syms, sb.syms[k][b])
			}
		}
		syms = syms[:len(gs)]
		sc.syms = syms
		l := &alphaLangs[li]
		best = max(best, pri.of(l.name)-l.cost(gs, syms))
	}
	return best + c.base, 0
}
