package sniff

import (
	"math"
	"slices"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// alphaLang is a letter-pair model of an alphabetic language.
type alphaLang struct {
	name     string
	charsets []string
	alphabet string // lower-case letters, sorted
	bigrams  string // (n+1)² cost digits, n = letters in alphabet
}

// lang is alphaLangs[i] with what is generated for it in single_tables.go:
// its letters as runes and the symbol of each ASCII byte. Both are static
// data, so a process that sniffs builds nothing per language; the model
// in alphaLangs is never written to.
type lang struct {
	*alphaLang
	letters []rune       // the alphabet's letters, sorted
	ascii   *[0x80]uint8 // find's answer for ASCII, most of any text
}

func langOf(i int) lang { return lang{&alphaLangs[i], alphaLetters[i], &asciiSyms[i]} }

// Costs in bits shared by every model, so that what all candidates decode
// alike weighs alike.
const (
	// asciiCost is an ASCII character outside a word holding non-ASCII
	// letters: about what a letter costs in the language models.
	asciiCost = 5
	// foreignLetter is a letter outside the language's alphabet.
	foreignLetter = 16
	// Non-letters: the punctuation text uses, other symbols, and controls.
	punctCost   = 8
	symbolCost  = 14
	controlCost = 24
	noCharCost  = 32
	// formatCost is an invisible format character (U+200D ZERO WIDTH
	// JOINER, U+200E LEFT-TO-RIGHT MARK): no one types one in a search.
	formatCost = 20
	// gluedSignCost is added for a non-ASCII sign touching a letter.
	gluedSignCost = 4
)

var negInf = math.Inf(-1)

// scoreLimit bounds the characters scored per request: a few thousand tell
// any charset the models know, and a large form body must not cost a
// scoring pass per candidate and language over all of it. Validity is
// still checked over every byte.
const scoreLimit = 4096

// find is the symbol of lower-case letter r (a glyph's lower): its index
// in the alphabet plus one, or 0 when the language lacks it.
func (l *lang) find(r rune) uint8 {
	if r < 0x80 {
		return l.ascii[r] // inlined: most letters are ASCII
	}
	return l.findHigh(r)
}

func (l *lang) findHigh(r rune) uint8 {
	i, ok := slices.BinarySearch(l.letters, r)
	if !ok {
		return 0
	}
	return uint8(i + 1)
}

// size is the number of symbols: the letters and the word boundary.
func (l *lang) size() int {
	return len(l.letters) + 1
}

// digit decodes one byte of a generated table to half-bits.
func digit(b byte) int {
	switch {
	case b == '-':
		return 62
	case b == '_':
		return 63
	case b <= '9':
		return int(b - '0')
	case b <= 'Z':
		return int(b-'A') + 10
	}
	return int(b-'a') + 36
}

// glyph is a decoded character as the alphabetic models see it.
type glyph struct {
	lower rune
	flags uint8
	// other is the cost in bits of a character that is not a letter.
	other float32
}

const (
	fWord  = 1 << iota // a letter (or a combining mark)
	fHigh              // not ASCII
	fUpper             // a capital
	fCased             // a letter with case
)

func glyphOf(r rune) glyph {
	g := glyph{lower: r}
	if r >= 0x80 {
		g.flags |= fHigh
	}
	if !isWordRune(r) {
		g.other = float32(nonLetterCost(r))
		return g
	}
	g.flags |= fWord
	g.lower = unicode.ToLower(r)
	if g.lower != r {
		g.flags |= fUpper | fCased
	} else if unicode.ToUpper(r) != r {
		g.flags |= fCased
	}
	return g
}

func isWordRune(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

// cost is -log2 of the probability of the glyphs in the language, in bits;
// syms holds each glyph's symbol. Words with a non-ASCII letter are scored
// letter by letter, ASCII letters included; everything else costs what it
// costs in every model.
//
// Every term is at least 0, so the sum only grows: once it passes limit
// the text cannot cost less, and cost stops there with +Inf (see
// pruneMargin). A limit of +Inf scores everything.
func (l *lang) cost(gs []glyph, syms []uint8, limit float64) float64 {
	total, half := 0.0, 0
	for i := 0; i < len(gs); {
		if total+float64(half)/2 > limit {
			return math.Inf(1)
		}
		if gs[i].flags&fWord == 0 {
			total += float64(gs[i].other)
			if gs[i].flags&fHigh != 0 && (i > 0 && gs[i-1].flags&fWord != 0 || i+1 < len(gs) && gs[i+1].flags&fWord != 0) {
				// A sign glued to a letter ("°lub", "z³o") is what a
				// letter misread looks like; "20°", "«Kraków»" pay less
				// than a letter pair would.
				total += gluedSignCost
			}
			i++
			continue
		}
		j, high := i, uint8(0)
		for j < len(gs) && gs[j].flags&fWord != 0 {
			high |= gs[j].flags
			j++
		}
		if high&fHigh != 0 {
			c, h := l.wordCost(gs[i:j], syms[i:j])
			total += c
			half += h
		} else {
			total += asciiCost * float64(j-i)
		}
		i = j
	}
	return total + float64(half)/2
}

// wordCost adds letter-pair costs (in half-bits) and a case model (in
// bits): a capital opens a word or the word is all capitals; a capital
// after a small letter is rare.
func (l *lang) wordCost(gs []glyph, syms []uint8) (bits float64, half int) {
	m := l.size()
	prev, uppers, lowerSeen, first := uint8(0), 0, false, true
	for i, g := range gs {
		if g.flags&fCased != 0 {
			isUpper := g.flags&fUpper != 0
			switch {
			case first:
				bits += pick(isUpper, 2, 0.4)
			case lowerSeen:
				bits += pick(isUpper, 9, 0.03)
			case uppers == 1:
				bits += pick(isUpper, 2.5, 0.2)
			default:
				bits += pick(isUpper, 0.15, 5)
			}
			first = false
			if isUpper {
				uppers++
			} else {
				lowerSeen = true
			}
		}
		k := syms[i]
		if k == 0 {
			bits += foreignLetter
		} else {
			half += digit(l.bigrams[int(prev)*m+int(k)])
		}
		prev = k
	}
	return bits, half + digit(l.bigrams[int(prev)*m])
}

func pick(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

// nonLetterCost prices a character that is not a letter.
func nonLetterCost(r rune) float64 {
	switch {
	case r < 0x80 && r >= 0x20 || r == '\t':
		return asciiCost
	case unicode.IsControl(r):
		return controlCost
	case unicode.Is(unicode.Cf, r):
		return formatCost
	case r == 0xA0 || r == '«' || r == '»' || r == '„' || r == '“' || r == '”' || r == '‘' || r == '’' ||
		r == '–' || r == '—' || r == '…' || r == '€' || r == '°' || r == '№':
		return punctCost
	case !unicode.IsGraphic(r):
		// Unassigned, private use, or U+2028 and U+2029: no text holds
		// one, but legacy bytes read as UTF-8 can (windows-874's "เทพ",
		// E0 B7 BE, is U+0DFE).
		return noCharCost
	}
	return symbolCost
}

// textScorer scores decoded text (UTF-8 input, windows-1258) with any of
// the alphabetic models, finding each symbol by search.
type textScorer struct {
	gs   []glyph
	syms []uint8
}

// load composes the texts (NFC, Unicode Standard Annex #15: Vietnamese in
// windows-1258 arrives with its tone marks apart) and turns them into
// glyphs; the samples are separated by a space.
func (s *textScorer) load(texts []string) {
	s.gs = s.gs[:0]
	for i, t := range texts {
		if i > 0 {
			s.gs = append(s.gs, glyphOf(' '))
		}
		if !norm.NFC.IsNormalString(t) {
			t = norm.NFC.String(t)
		}
		for _, r := range t {
			if len(s.gs) == scoreLimit {
				return
			}
			s.gs = append(s.gs, glyphOf(r))
		}
	}
}

// score is the language's log2 probability of the loaded text, or -Inf
// when the language has none of its non-ASCII letters (it could only call
// them all foreign: some other language will do better). pruned says the
// text costs more than limit bits (see cost), and the score is then -Inf
// too.
func (s *textScorer) score(l lang, limit float64) (score float64, pruned bool) {
	s.syms = s.syms[:0]
	some, any := false, false
	for _, g := range s.gs {
		k := uint8(0)
		if g.flags&fWord != 0 {
			k = l.find(g.lower)
			if g.flags&fHigh != 0 {
				any = true
				some = some || k != 0
			}
		}
		s.syms = append(s.syms, k)
	}
	if any && !some {
		return negInf, false
	}
	c := l.cost(s.gs, s.syms, limit)
	return -c, math.IsInf(c, 1)
}
