package sniff

// utf8Bonus is UTF-8's prior over any legacy encoding, in bits: most forms
// are UTF-8 (Encoding Standard § 4.1 makes it every new page's encoding),
// and a legacy string that happens to be valid UTF-8 is the exception.
const utf8Bonus = 6

// utf8Candidate stands for UTF-8 among the scored candidates.
var utf8Candidate = &candidate{name: "utf-8", cjk: noCJK}

// utf8Score scores text decoded as UTF-8 in the likeliest of all the
// languages modelled: UTF-8 writes them all.
func utf8Score(decoded []string, pri priors, sc *scratch) float64 {
	best := -genericCost(decoded, &sc.text.glyphs)
	for l := range cjkNames {
		// Only a language that beats the best so far changes the max.
		p := pri.of(cjkNames[l])
		s := 0.0
		for _, t := range decoded {
			s -= cjkCost(cjkLang(l), t, &sc.text.glyphs, costLimit(p-best+s))
		}
		best = max(best, s+p)
	}
	sc.text.load(decoded)
	for i := range alphaLangs {
		l := langOf(i)
		// Only a language that beats the best so far changes the max: the
		// others may stop as soon as they cost more (see cost).
		s, _ := sc.text.score(l, costLimit(pri.of(l.name)-best))
		best = max(best, s+pri.of(l.name))
	}
	return best + utf8Bonus
}

// genericCost prices text in no particular language, the floor under the
// language models for the scripts they lack (Armenian, Georgian, ...): a
// letter continuing a word in its script's block costs as a letter of a
// mid-sized alphabet, a letter starting a word or switching blocks more, a
// capital after a small letter as much as the language models make it.
func genericCost(decoded []string, gc *glyphCache) float64 {
	c := 0.0
	for _, t := range decoded {
		prevBlock, prevLower := rune(-1), false
		n := 0
		for _, r := range t[:min(len(t), 4*scoreLimit)] {
			if n == scoreLimit {
				break
			}
			n++
			g := gc.of(r)
			if g.flags&fWord == 0 {
				c += float64(g.other) // nonLetterCost(r)
				prevBlock, prevLower = -1, false
				continue
			}
			switch {
			case r < 0x80:
				c += asciiCost
			case r >= 0x800 && !ordinaryRune(r):
				c += rareCost // polytonic Greek, Ogham, ...: seldom typed
			case r>>8 == prevBlock:
				c += 7
			default:
				c += 12
			}
			if g.flags&fUpper != 0 && prevLower {
				c += 9
			}
			prevBlock, prevLower = r>>8, g.flags&fCased != 0 && g.flags&fUpper == 0
		}
	}
	return c
}
