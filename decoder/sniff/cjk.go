package sniff

import (
	"math"
	"unicode/utf8"
)

// cjkLang names a CJK language model.
type cjkLang int8

const (
	noCJK cjkLang = iota - 1
	cjkJa
	cjkKo
	cjkHans
	cjkHant
)

var cjkNames = [...]string{cjkJa: "ja", cjkKo: "ko", cjkHans: "zh-Hans", cjkHant: "zh-Hant"}

// Character classes of CJK text.
const (
	clsHan = iota
	clsHira
	clsKata
	clsHangul
	nClasses
)

// classCost is -log2 of the share of each class in running text of each
// language, in bits: Japanese mixes kanji, hiragana and katakana; Chinese is
// nearly all hanzi; Korean nearly all hangul, with some hanja.
var classCost = [...][nClasses]float64{
	cjkJa:   {clsHan: 1.25, clsHira: 1.6, clsKata: 2.3, clsHangul: 20},
	cjkKo:   {clsHan: 6.5, clsHira: 18, clsKata: 18, clsHangul: 0.1},
	cjkHans: {clsHan: 0.06, clsHira: 16, clsKata: 16, clsHangul: 20},
	cjkHant: {clsHan: 0.06, clsHira: 16, clsKata: 16, clsHangul: 20},
}

// sameClassCost caps the cost of a class that continues the previous
// character's: Japanese words run in one script (東京, ラーメン), so a
// kanji after a kanji is likelier than a kanji anywhere.
const sameClassCost = 0.6

var hanTables = [...]string{cjkJa: hanJa, cjkKo: hanKo, cjkHans: hanHans, cjkHant: hanHant}

// Costs in bits of characters outside the frequency tables.
const (
	cjkPunctCost    = 7  // U+3000..U+303F: 、。「」 and the ideographic space
	fullwidthCost   = 9  // U+FF01..U+FF5E: fullwidth ASCII
	halfKanaCost    = 13 // U+FF61..U+FF9F in Japanese: halfwidth katakana
	jamoCost        = 14 // U+3131..U+318E in Korean: lone jamo
	otherScriptCost = 15 // Greek and Cyrillic rows of the CJK sets
	cjkSymbolCost   = 17 // any other symbol of the CJK sets
	rareCost        = 20 // a script foreign to the language
	privateCost     = 22 // private use and supplementary planes
)

// scriptSwitchCost is paid each time an ASCII letter and a CJK character
// touch: Latin words sit in CJK text ("iPhone 手机"), but a lone ideograph
// between Latin letters is what Latin text misread looks like.
const scriptSwitchCost = 6

// allLetters reports whether r is in a block whose every code point is a
// letter (TestTheLetterBlocksAreAllLetters): the ideographs and the hangul
// syllables, most of CJK text, need no lookup in the Unicode tables.
func allLetters(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7A3
}

// cjkCost is -log2 of the probability of t in language l, in bits, or
// +Inf once it passes limit: every term is at least 0 (see pruneMargin).
func cjkCost(l cjkLang, t string, gc *glyphCache, limit float64) float64 {
	total := 0.0
	prevLetter, prevCJK := false, false
	prevClass := -1
	class := func(c int) float64 {
		cost := classCost[l][c]
		if c == prevClass {
			cost = min(cost, sameClassCost)
		}
		prevClass = c
		return cost
	}
	for i, n := 0, 0; i < len(t) && n < scoreLimit; n++ {
		if total > limit {
			return math.Inf(1)
		}
		if b := t[i]; b < utf8.RuneSelf {
			// ASCII, most of a Latin value read as CJK: its glyph
			// tells a letter, and the cost of any other character
			// (nonLetterCost, which is asciiCost for a letter too).
			i++
			g := asciiGlyphs[b]
			letter := g.flags&fWord != 0
			if letter && prevCJK {
				total += scriptSwitchCost
			}
			prevLetter, prevCJK, prevClass = letter, false, -1
			if letter {
				total += asciiCost
			} else {
				total += float64(g.other)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		i += size
		isCJK := allLetters(r) || gc.isWord(r)
		if isCJK && prevLetter {
			total += scriptSwitchCost
		}
		prevLetter, prevCJK = false, isCJK
		if !isCJK {
			prevClass = -1
		}
		switch {
		case r >= 0x4E00 && r <= 0x9FFF:
			total += class(clsHan) + float64(digit(hanTables[l][r-0x4E00]))/2
		case r >= 0x3041 && r <= 0x309F:
			if l == cjkJa {
				total += class(clsHira) + float64(digit(hiraganaJa[r-0x3040]))/2
			} else {
				total += class(clsHira) + 6
			}
		case r >= 0x30A0 && r <= 0x30FF:
			if l == cjkJa {
				total += class(clsKata) + float64(digit(katakanaJa[r-0x30A0]))/2
			} else {
				total += class(clsKata) + 6
			}
		case r >= 0xAC00 && r <= 0xD7A3:
			if l == cjkKo {
				total += class(clsHangul) + float64(digit(hangulKo[r-0xAC00]))/2
			} else {
				total += rareCost
			}
		case r >= 0x3000 && r <= 0x303F:
			total += cjkPunctCost
		case r >= 0xFF01 && r <= 0xFF5E:
			total += fullwidthCost
		case r >= 0xFF61 && r <= 0xFF9F:
			total += pick(l == cjkJa, halfKanaCost, rareCost)
		case r >= 0x3131 && r <= 0x318E:
			total += pick(l == cjkKo, jamoCost, rareCost)
		case r >= 0x0370 && r <= 0x04FF:
			total += otherScriptCost
		case r >= 0xE000 && r <= 0xF8FF, r > 0xFFFF:
			total += privateCost
		case r >= 0x3400 && r <= 0x4DBF, r >= 0xF900 && r <= 0xFAFF:
			total += rareCost
		case isCJK:
			total += rareCost // a letter of a script the CJK sets hold as symbols
		default:
			// One of the CJK sets' hundreds of symbols (arrows, box
			// drawing, circled digits): each is rarer than a Latin-1 sign.
			total += max(nonLetterCost(r), cjkSymbolCost)
		}
	}
	return total
}
