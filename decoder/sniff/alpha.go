package sniff

import (
	"math"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// alphaLang is a letter-pair model of an alphabetic language.
type alphaLang struct {
	name     string
	charsets []string
	alphabet string // lower-case letters, sorted
	bigrams  string // (n+1)² cost digits, n = letters in alphabet

	once    sync.Once
	letters []rune
}

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
)

var negInf = math.Inf(-1)

func (l *alphaLang) find(r rune) int {
	l.once.Do(func() { l.letters = []rune(l.alphabet) })
	i, ok := slices.BinarySearch(l.letters, r)
	if !ok {
		return 0
	}
	return i + 1
}

// bigram is the cost in bits of symbol next after symbol prev.
func (l *alphaLang) bigram(prev, next int) float64 {
	n := len(l.letters) + 1
	return float64(digit(l.bigrams[prev*n+next])) / 2
}

// digit decodes one byte of a generated table to half-bits.
func digit(b byte) int {
	switch {
	case b <= '9':
		return int(b - '0')
	case b <= 'Z':
		return int(b-'A') + 10
	case b == '_':
		return 63
	case b == '-':
		return 62
	}
	return int(b-'a') + 36
}

func isWordRune(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

// cost is -log2 of the probability of text t in the language, in bits.
// Words with a non-ASCII letter are scored letter by letter, ASCII letters
// included; everything else costs what it costs in every model.
func (l *alphaLang) cost(t string) float64 {
	total := 0.0
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRuneInString(t[i:])
		if !isWordRune(r) {
			total += nonLetterCost(r)
			i += size
			continue
		}
		j, high := i, false
		for j < len(t) {
			r, s := utf8.DecodeRuneInString(t[j:])
			if !isWordRune(r) {
				break
			}
			high = high || r >= 0x80
			j += s
		}
		if high {
			total += l.wordCost(t[i:j])
		} else {
			total += asciiCost * float64(j-i)
		}
		i = j
	}
	return total
}

// wordCost adds letter-pair costs and a case model: a capital opens a word
// or the word is all capitals; a capital after a small letter is rare.
func (l *alphaLang) wordCost(w string) float64 {
	total := 0.0
	prev, uppers, lowerSeen, first := 0, 0, false, true
	for _, r := range w {
		lower := unicode.ToLower(r)
		isUpper := lower != r
		if isUpper || unicode.ToUpper(r) != r {
			switch {
			case first:
				total += pick(isUpper, 2, 0.4)
			case lowerSeen:
				total += pick(isUpper, 9, 0.03)
			case uppers == 1:
				total += pick(isUpper, 2.5, 0.2)
			default:
				total += pick(isUpper, 0.15, 5)
			}
			first = false
			if isUpper {
				uppers++
			} else {
				lowerSeen = true
			}
		}
		k := l.find(lower)
		if k == 0 {
			total += foreignLetter
		} else {
			total += l.bigram(prev, k)
		}
		prev = k
	}
	return total + l.bigram(prev, 0)
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
	case r == 0xA0 || r == '«' || r == '»' || r == '„' || r == '“' || r == '”' || r == '‘' || r == '’' ||
		r == '–' || r == '—' || r == '…' || r == '€' || r == '°' || r == '№' || r == '·':
		return punctCost
	}
	return symbolCost
}

// composed is decoded text in NFC (Unicode Standard Annex #15), as
// Vietnamese is written once its tone marks are composed.
func composed(decoded []string) []string {
	out := make([]string, len(decoded))
	for i, t := range decoded {
		out[i] = norm.NFC.String(t)
	}
	return out
}
