package sniff

import (
	"cmp"
	"slices"

	"github.com/cgigate/cgigate/internal/lazy"
)

// probeBytes is how much of a longer text ranks the single-byte candidates
// before any is scored in full.
const probeBytes = 64

// evaluationOrder is the order, as indexes in cands, in which Sniff
// evaluates the candidates. The earlier a candidate that scores well comes,
// the sooner the floor under which the others stop rises (see
// pruneMargin): for a paragraph, the candidates that read it as gibberish
// then stop after a few words instead of scoring it to the end in each of
// their languages. The guess does not depend on the order (Sniff makes the
// groups in candidate order), only the time.
//
// First come the candidates that need a decoder, cheap to rule out (most
// multibyte encodings find an invalid sequence early in text of another)
// and the likeliest winners when valid; then the single-byte ones, ranked
// on the first probeBytes of the text when there is more; last
// windows-1258, dearest to score when its text needs composing. With
// pruning off, the order is the candidates'.
func (sc *scratch) evaluationOrder(cands []*candidate, samples [][]byte, pri priors, utf8Valid bool) []int {
	if !pruning {
		order := sc.order[:0]
		for i := range cands {
			order = append(order, i)
		}
		sc.order = order
		return order
	}
	var order []int
	// The package's own candidates, in their fixed order: made once.
	shared := len(cands) == len(candidateList) && &cands[0] == &candidates.Get()[0]
	if shared {
		order = defaultOrder.Get()
	} else {
		order = appendBaseOrder(sc.order[:0], cands)
		sc.order = order
	}
	n := 0 // where the single-byte candidates start
	for n < len(order) && cands[order[n]].sb == nil {
		n++
	}
	singles := order[n:]
	for len(singles) > 0 && cands[singles[len(singles)-1]].nfc {
		singles = singles[:len(singles)-1]
	}
	if utf8Valid || len(singles) < 2 || !sc.histogram(samples) {
		// Valid UTF-8 is scored first and likeliest to win: it sets the
		// floor already. A short text is scored in full by every
		// candidate anyway.
		return order
	}
	if shared {
		// The ranking sorts a copy of the fixed order.
		sc.order = append(sc.order[:0], order...)
		order = sc.order
		singles = order[n : n+len(singles)]
	}
	ranked := sc.ranked[:0]
	for _, i := range singles {
		ranked = append(ranked, rankedCandidate{i, cands[i].unigramScore(sc, pri)})
	}
	slices.SortStableFunc(ranked, func(a, b rankedCandidate) int { return cmp.Compare(b.score, a.score) })
	for k, r := range ranked {
		singles[k] = r.index
	}
	sc.ranked = ranked
	return order
}

// appendBaseOrder appends to order the indexes of cands in the order
// evaluationOrder starts from: the candidates that need a decoder, then
// the single-byte ones, then windows-1258.
func appendBaseOrder(order []int, cands []*candidate) []int {
	for i, c := range cands {
		if c.sb == nil {
			order = append(order, i)
		}
	}
	for i, c := range cands {
		if c.sb != nil && !c.nfc {
			order = append(order, i)
		}
	}
	for i, c := range cands {
		if c.nfc {
			order = append(order, i)
		}
	}
	return order
}

// defaultOrder is appendBaseOrder of the package's candidates, which
// every call without a hint's candidates starts from.
var defaultOrder = lazy.Value[[]int]{New: func() []int { return appendBaseOrder(nil, candidates.Get()) }}

type rankedCandidate struct {
	index int
	score float64
}

// rankBytes is how much of a text ranks the single-byte candidates, and
// how long it must be for them to be ranked.
const rankBytes = 256

// histogram counts in sc.counts the bytes 0x80 and up among the first
// rankBytes of the samples, listing in sc.present those seen, and reports
// whether the samples hold more than rankBytes.
func (sc *scratch) histogram(samples [][]byte) bool {
	n := 0
	for _, s := range samples {
		n += len(s)
	}
	if n <= rankBytes {
		return false
	}
	clear(sc.counts[:])
	sc.present = sc.present[:0]
	n = 0
	for _, s := range samples {
		for _, b := range s[:min(len(s), rankBytes-n)] {
			if b >= 0x80 {
				if sc.counts[b-0x80] == 0 {
					sc.present = append(sc.present, b-0x80)
				}
				sc.counts[b-0x80]++
			}
		}
		if n += len(s); n >= rankBytes {
			break
		}
	}
	return true
}

// unigramScore is a rough score of the counted bytes in c, for ranking
// only: each byte priced as a non-letter, a foreign letter, or a letter
// starting a word in the likeliest of c's languages, priors included.
func (c *candidate) unigramScore(sc *scratch, pri priors) float64 {
	other := 0
	// The letters among the counted bytes, listed once for all of c's
	// languages.
	letters := sc.rankLetters[:0]
	for _, h := range sc.present {
		if !c.sb.valid[h] {
			return negInf
		}
		if g := c.sb.glyphs[h]; g.flags&fWord == 0 {
			other += 2 * int(g.other) * int(sc.counts[h])
		} else {
			letters = append(letters, h)
		}
	}
	sc.rankLetters = letters
	best := negInf
	for k, li := range c.alpha {
		l := &alphaLangs[li]
		high := (*[0x80]uint8)(c.sb.syms[k][0x80:])
		half := other
		for _, h := range letters {
			if sym := high[h]; sym == 0 {
				half += 2 * foreignLetter * int(sc.counts[h])
			} else {
				half += digit(l.bigrams[sym]) * int(sc.counts[h])
			}
		}
		best = max(best, pri.of(l.name)-float64(half)/2)
	}
	return best + c.base
}
