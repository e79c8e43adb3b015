package sniff

import (
	"bytes"
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
// Candidates that decode the samples alike share what each language makes
// of the text (sc.memo): a Latin text reads the same in windows-1252,
// windows-1250, ISO-8859-2 and more, and German is scored in it once, not
// once per candidate. The languages left to score score the text together,
// word by word, each stopping once it costs more than it may (see
// lettersCost), and the candidate stops when they all have: a paragraph
// in another charset is given up after a few words.
func (c *candidate) scoreSingle(samples [][]byte, pri priors, sc *scratch, floor float64) (score float64, clean bool) {
	sb := c.sb
	for _, s := range samples {
		for _, b := range s {
			if b >= 0x80 && !sb.valid[b-0x80] {
				return negInf, false
			}
		}
	}
	// The decoded text groups c with the candidates that read the bytes
	// alike, and keys what its languages make of it.
	sc.key = c.appendKey(sc.key[:0], samples)
	sc.keyText = sc.textID(sc.key)
	memo := &sc.memo[sc.keyText]
	var (
		limits [maxLangs]float64
		todo   = false
	)
	for k, li := range c.alpha {
		// score = pri + base - cost matters only if it reaches floor:
		// cost at most pri + base - floor.
		limits[k] = costLimit(pri.of(alphaLangs[li].name) + c.base - floor)
		todo = todo || !memo[li].knows(limits[k])
	}
	if todo {
		c.scoreLanguages(samples, sc, memo, &limits)
	}
	best := negInf
	for _, li := range c.alpha {
		// A cost above the limit, known from a candidate that allowed
		// more, can only lose, as the -Inf of a stopped language does.
		if m := memo[li]; !m.over {
			best = max(best, pri.of(alphaLangs[li].name)-m.cost)
		}
	}
	return best + c.base, true
}

// langMemo is what a language makes of a decoded text: its cost, or, with
// over set, a limit the cost was found to pass. The zero value knows
// nothing.
type langMemo struct {
	cost float64
	over bool
}

// knows reports whether m tells c's language with limit its cost or that
// it passes limit.
func (m langMemo) knows(limit float64) bool {
	return m.cost != 0 && (!m.over || m.cost >= limit)
}

// textID is the place in sc.texts of the text key decodes to (joinKey's
// form), added if new with an empty memo. Texts are told apart by group
// key (appendGroupKey), found by a hash first.
func (sc *scratch) textID(key []byte) int {
	h := hashKey(key)
	for i, t := range sc.texts {
		if t.hash == h && sameText(t.key, key) {
			return i
		}
	}
	n := len(sc.textKeys)
	sc.textKeys = appendGroupKey(sc.textKeys, key)
	sc.texts = append(sc.texts, text{key: sc.textKeys[n:len(sc.textKeys):len(sc.textKeys)], hash: h})
	sc.memo = append(sc.memo, [len(alphaLangs)]langMemo{})
	return len(sc.texts) - 1
}

// sameText reports whether key decodes to the text whose group key is gk.
func sameText(gk, key []byte) bool {
	if len(key) <= 1024 {
		return bytes.Equal(gk, key)
	}
	var buf [17]byte
	return bytes.Equal(gk, appendGroupKey(buf[:0], key))
}

// hashKey is a cheap hash of a decoded text, to pass over most others
// without comparing them: its length and its first and last bytes.
func hashKey(key []byte) uint64 {
	h := uint64(len(key))
	for i, b := range key[:min(len(key), 8)] {
		h ^= uint64(b) << (8 + 6*i)
	}
	if n := len(key); n > 8 {
		h ^= uint64(key[n-1])<<56 ^ uint64(key[n-2])<<50
	}
	return h
}

// text is a decoding of the samples one Sniff call has seen.
type text struct {
	key  []byte // its group key, in sc.textKeys
	hash uint64 // hashKey of the decoded text
}

// resetTexts forgets every text.
func (sc *scratch) resetTexts() {
	sc.textKeys, sc.texts, sc.memo = sc.textKeys[:0], sc.texts[:0], sc.memo[:0]
}

// scoreLanguages scores the samples in those of c's languages that memo
// does not know under limits, and tells memo.
func (c *candidate) scoreLanguages(samples [][]byte, sc *scratch, memo *[len(alphaLangs)]langMemo, limits *[maxLangs]float64) {
	sb := c.sb
	gs, bs := sc.text.gs[:0], sc.bytes[:0]
	for i, s := range samples {
		if i > 0 {
			gs = append(gs, asciiGlyphs[' '])
			bs = append(bs, ' ')
		}
		for _, b := range s[:max(0, min(len(s), scoreLimit-len(gs)))] {
			if b < 0x80 {
				gs = append(gs, asciiGlyphs[b])
			} else {
				gs = append(gs, sb.glyphs[b-0x80])
			}
			bs = append(bs, b)
		}
	}
	sc.text.gs, sc.bytes = gs, bs
	// The state of each language as the words go by.
	type langState struct {
		ascii, high *[0x80]uint8 // symbols of the bytes below and from 0x80
		bigrams     string
		m           int // symbols in the language: bigrams' row length
		half        int // letter-pair costs so far, -1 once stopped
	}
	var (
		langs [maxLangs]langState
		alive = 0
	)
	for k, li := range c.alpha {
		langs[k] = langState{ascii: &asciiSyms[li], high: &sb.syms[k], bigrams: alphaLangs[li].bigrams, m: len(alphaLetters[li]) + 1}
		if memo[li].knows(limits[k]) {
			langs[k].half = -1
		} else {
			alive++
		}
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
				continue // known, or stopped
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
			if fixed+float64(st.half)/2 > limits[k] {
				st.half = -1
				memo[c.alpha[k]] = langMemo{cost: limits[k], over: true}
				alive--
			}
		}
	}
	for k, li := range c.alpha {
		if st := langs[k]; st.half >= 0 {
			memo[li] = langMemo{cost: fixed + float64(st.half)/2}
		}
	}
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
