package sniff

import (
	"math"
	"slices"
	"unicode"
	"unsafe"

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
	index   int          // the place in alphaLangs
}

func langOf(i int) lang { return lang{&alphaLangs[i], alphaLetters[i], &asciiSyms[i], i} }

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
	if r > l.letters[len(l.letters)-1] || r < l.letters[0] {
		return 0 // another script: no search
	}
	i, ok := slices.BinarySearch(l.letters, r)
	if !ok {
		return 0
	}
	return uint8(i + 1)
}

// symCache remembers find's answers for the letters 0x80 and up a text
// holds, in a small table indexed by a hash of the letter, one answer per
// language: a paragraph repeats its few dozen letters, and each would be
// searched for again in every language that reads it.
type symCache struct {
	letters [256]rune // 0 where empty: rune 0 is ASCII, never kept
	// syms[h][i] is find's answer in alphaLangs[i] for letters[h], or
	// unknownSym.
	syms [256][len(alphaLangs)]uint8
}

// unknownSym marks an answer not asked for yet: no alphabet has 255 letters.
const unknownSym = 0xFF

// find is l.find(r).
func (c *symCache) find(l *lang, r rune) uint8 {
	if r < 0x80 {
		return l.ascii[r]
	}
	if r > l.letters[len(l.letters)-1] || r < l.letters[0] {
		return 0 // another script: no search, nothing to remember
	}
	h := uint32(r) * 0x9E3779B1 >> 24
	if c.letters[h] != r {
		c.letters[h] = r
		for i := range c.syms[h] {
			c.syms[h][i] = unknownSym
		}
	}
	k := &c.syms[h][l.index]
	if *k == unknownSym {
		*k = l.findHigh(r)
	}
	return *k
}

// size is the number of symbols: the letters and the word boundary.
func (l *lang) size() int {
	return len(l.letters) + 1
}

// digit decodes one byte of a generated table (costDigits) to half-bits.
func digit(b byte) int {
	return int(digitValue[b])
}

// digitValue is what each byte of costDigits stands for: a table, not the
// switch on byte ranges it replaces, as scoring looks up a digit per letter
// per language.
var digitValue = [256]uint8{
	'0': 0, '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9, 'A': 10, 'B': 11, 'C': 12, 'D': 13, 'E': 14, 'F': 15, 'G': 16, 'H': 17, 'I': 18, 'J': 19, 'K': 20, 'L': 21, 'M': 22, 'N': 23, 'O': 24, 'P': 25, 'Q': 26, 'R': 27, 'S': 28, 'T': 29, 'U': 30, 'V': 31, 'W': 32, 'X': 33, 'Y': 34, 'Z': 35, 'a': 36, 'b': 37, 'c': 38, 'd': 39, 'e': 40, 'f': 41, 'g': 42, 'h': 43, 'i': 44, 'j': 45, 'k': 46, 'l': 47, 'm': 48, 'n': 49, 'o': 50, 'p': 51, 'q': 52, 'r': 53, 's': 54, 't': 55, 'u': 56, 'v': 57, 'w': 58, 'x': 59, 'y': 60, 'z': 61, '-': 62, '_': 63,
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

// glyphCache remembers glyphOf of the runes 0x80 and up it was asked
// for, in a small table indexed by a hash of the rune: a text holds few
// distinct letters, and glyphOf's lookups in the Unicode tables cost more
// than the scoring of a letter in a dozen languages.
type glyphCache struct {
	runes  [256]rune // 0 where empty: rune 0 is ASCII, never kept
	glyphs [256]glyph
}

func (c *glyphCache) of(r rune) glyph {
	if r < 0x80 {
		return asciiGlyphs[r]
	}
	h := uint32(r) * 0x9E3779B1 >> 24 // Fibonacci hashing: the top byte
	if c.runes[h] == r {
		return c.glyphs[h]
	}
	g := glyphOf(r)
	c.runes[h], c.glyphs[h] = r, g
	return g
}

// isWord is isWordRune(r).
func (c *glyphCache) isWord(r rune) bool {
	return c.of(r).flags&fWord != 0
}

func isWordRune(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

// The cost of text in a language is -log2 of its probability, in bits.
// Words with a non-ASCII letter are scored letter by letter, ASCII letters
// included; everything else costs what it costs in every model. So a text
// is split once (split) into what every language prices alike, fixed, and
// the words each language prices by its letter pairs (wordHalves), so
// that a candidate's dozen languages each pay only for these.

// span is a word of glyphs holding a non-ASCII letter: gs[start:end].
type span struct{ start, end int32 }

// split appends to words the words of gs that hold a non-ASCII letter and
// returns the cost of the rest, the same in every language: non-letters,
// the words of ASCII letters alone, and the case model of every word (a
// capital opens a word or the word is all capitals; a capital after a
// small letter is rare).
func split(gs []glyph, words []span) (fixed float64, _ []span) {
	sp := splitter{gs: gs}
	for {
		w, ok := sp.next(&fixed)
		if !ok {
			return fixed, words
		}
		words = append(words, w)
	}
}

// splitter is split one word at a time, for a scorer that may stop early.
// It reads the glyphs from gs, or, when gs is nil, from the bytes bs of a
// single-byte candidate whose bytes 0x80 and up are the glyphs high: such
// a candidate makes no glyph array of its text, and one that stops after a
// few words reads no further.
type splitter struct {
	gs   []glyph
	bs   []byte
	high *[0x80]glyph
	i    int
}

// len is the number of glyphs.
func (sp *splitter) len() int {
	if sp.gs != nil {
		return len(sp.gs)
	}
	return len(sp.bs)
}

// at is the i-th glyph.
func (sp *splitter) at(i int) glyph {
	if sp.gs != nil {
		return sp.gs[i]
	}
	if b := sp.bs[i]; b >= 0x80 {
		return sp.high[b-0x80]
	}
	return asciiGlyphs[sp.bs[i]]
}

// next adds to fixed the cost of what precedes the next word holding a
// non-ASCII letter, and that word's case model, and returns the word; ok
// is false at the end of the glyphs.
func (sp *splitter) next(fixed *float64) (w span, ok bool) {
	n := sp.len()
	for i := sp.i; i < n; {
		g := sp.at(i)
		if g.flags&fWord == 0 {
			*fixed += float64(g.other)
			if g.flags&fHigh != 0 && (i > 0 && sp.at(i-1).flags&fWord != 0 || i+1 < n && sp.at(i+1).flags&fWord != 0) {
				// A sign glued to a letter ("°lub", "z³o") is what a
				// letter misread looks like; "20°", "«Kraków»" pay less
				// than a letter pair would.
				*fixed += gluedSignCost
			}
			i++
			continue
		}
		// The word's case model (caseCost) is priced as it is read,
		// and kept if the word holds a non-ASCII letter.
		j, high := i, uint8(0)
		state, bits := uint8(caseFirst), 0.0
		for ; j < n; j++ {
			f := sp.at(j).flags
			if f&fWord == 0 {
				break
			}
			high |= f
			// Every letter takes a step, a letter without case one that
			// adds 0 and stays: whether a letter has case follows no
			// pattern the processor can learn in a value read in the
			// wrong charset.
			st := &caseSteps[state][caseColumn(f)]
			bits += st.cost
			state = st.next
		}
		if high&fHigh != 0 {
			*fixed += bits
			sp.i = j
			return span{int32(i), int32(j)}, true
		}
		*fixed += asciiCost * float64(j-i)
		i = j
	}
	sp.i = n
	return span{}, false
}

// caseCost is the case model's cost of the word of glyphs i to j, in bits.
func (sp *splitter) caseCost(i, j int) (bits float64) {
	state := uint8(caseFirst)
	for ; i < j; i++ {
		st := &caseSteps[state][caseColumn(sp.at(i).flags)]
		bits += st.cost
		state = st.next
	}
	return bits
}

// The case model prices each cased letter of a word by what came before
// it: a capital opening a word is common, one after a small letter rare,
// and after two capitals the word is an acronym. Its states:
const (
	caseFirst     = iota // no cased letter yet
	caseLowerSeen        // a small letter seen
	caseOneUpper         // one capital and no small letter
	caseUppers           // capitals alone, two or more
)

// caseSteps[state][caseColumn(flags)] is the cost in bits of a letter in
// state, and the state after it: for a small letter or a capital, the case
// model's; for a letter without case, 0 and the same state (adding 0 to a
// cost, never -0, leaves it as it is).
var caseSteps = [4][4]struct {
	cost float64
	next uint8
}{
	caseFirst:     {{0, caseFirst}, {0, caseFirst}, {0.4, caseLowerSeen}, {2, caseOneUpper}},
	caseLowerSeen: {{0, caseLowerSeen}, {0, caseLowerSeen}, {0.03, caseLowerSeen}, {9, caseLowerSeen}},
	caseOneUpper:  {{0, caseOneUpper}, {0, caseOneUpper}, {0.2, caseLowerSeen}, {2.5, caseUppers}},
	caseUppers:    {{0, caseUppers}, {0, caseUppers}, {5, caseLowerSeen}, {0.15, caseUppers}},
}

// caseColumn is a glyph's column in caseSteps: 2 for a small letter, 3 for
// a capital, 0 or 1 for a letter without case (fUpper alone is not set).
func caseColumn(flags uint8) uint8 { return flags & (fUpper | fCased) / fUpper }

// wordHalves is the letter-pair cost in half-bits of a word whose letters
// have the symbols syms, a word boundary on either side; a letter outside
// the alphabet (symbol 0) costs foreignLetter.
func (l *lang) wordHalves(syms []uint8) (half int) {
	m := l.size()
	prev := 0
	for _, k := range syms {
		// As lane.wordHalves: the foreign letter's price picked
		// without a branch.
		d := digit(l.bigrams[prev*m+int(k)])
		if k == 0 {
			d = 2 * foreignLetter
		}
		half += d
		prev = int(k)
	}
	return half + digit(l.bigrams[prev*m])
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
	glyphs  glyphCache
	syms    symCache
	nfc     []byte // a composed text
	iter    norm.Iter
	pieces  [64]composed // composePiece's, by a hash of the piece
	gs      []glyph
	symbols []uint8
	words   []span
	fixed   float64
	// highs are the distinct lower-case letters 0x80 and up of words,
	// seen the table that finds them (0 where empty: rune 0 is ASCII).
	highs []rune
	seen  [256]rune
}

// load composes the texts (NFC, Unicode Standard Annex #15: Vietnamese in
// windows-1258 arrives with its tone marks apart) and turns them into
// glyphs; the samples are separated by a space.
func (s *textScorer) load(texts []string) {
	s.gs = s.gs[:0]
load:
	for i, t := range texts {
		if i > 0 {
			s.gs = append(s.gs, asciiGlyphs[' '])
		}
		switch {
		case startersOnly(t):
			// Already in NFC: nothing to compose.
		case len(t) <= iterLimit && hasMarkLead(t):
			// A combining mark (windows-1258's tone marks): composed
			// a segment at a time, without the quick check, which
			// would stop at the mark anyway.
			s.nfc = s.composeSegments(s.nfc[:0], t)
			t = unsafe.String(unsafe.SliceData(s.nfc), len(s.nfc))
		case norm.NFC.QuickSpanString(t) < len(t):
			// Composed into a buffer of the scorer's own: t does not
			// outlive this iteration. A short text through an Iter of
			// the scorer's own, as norm.NFC.AppendString allocates its
			// reorder buffer on each call (a third of composing a short
			// value's time); a long one in AppendString's one pass,
			// faster than the Iter's segment at a time.
			if len(t) <= iterLimit {
				s.nfc = s.appendNFC(s.nfc[:0], t)
			} else {
				s.nfc = norm.NFC.AppendString(s.nfc[:0], t)
			}
			t = unsafe.String(unsafe.SliceData(s.nfc), len(s.nfc))
		}
		for _, r := range t {
			if len(s.gs) == scoreLimit {
				break load
			}
			s.gs = append(s.gs, s.glyphs.of(r))
		}
	}
	s.fixed, s.words = split(s.gs, s.words[:0])
	// The distinct letters 0x80 and up of the words, for hasLetterOf,
	// which asks about them once per language: found by a hash, a letter
	// pushed out by another may be listed twice, which changes no answer.
	clear(s.seen[:])
	s.highs = s.highs[:0]
	for _, w := range s.words {
		for _, g := range s.gs[w.start:w.end] {
			if g.flags&fHigh == 0 {
				continue
			}
			if h := uint32(g.lower) * 0x9E3779B1 >> 24; s.seen[h] != g.lower {
				s.seen[h] = g.lower
				s.highs = append(s.highs, g.lower)
			}
		}
	}
}

// iterLimit is the longest text textScorer.load composes with its Iter.
const iterLimit = 256

// hasMarkLead reports whether t holds a character from U+0300 to U+037F:
// the combining diacritical marks, and a few Greek signs.
func hasMarkLead(t string) bool {
	for i := 0; i < len(t); i++ {
		if b := t[i]; b == 0xCC || b == 0xCD {
			return true
		}
	}
	return false
}

// segmentStart reports whether a character whose UTF-8 starts with b is
// one startersOnly lets by: a starter in Normalization Form C alone that
// combines with nothing before it (TestStartersOnlyNeedNoComposing).
func segmentStart(b byte) bool {
	return b < 0x80 || b >= 0xC0 && b < 0xCC || b == 0xD0 || b == 0xD1
}

// composeSegments appends NFC of valid UTF-8 t to dst. Before each
// character segmentStart lets by, nothing composes or reorders across
// (Unicode Standard Annex #15, § 9.1): NFC of t is that of each piece
// between them, joined. A piece of that character alone is itself; the
// others (a letter and its tone mark) are composed once and remembered,
// as a value's few pieces recur from candidate to candidate and call to
// call.
func (s *textScorer) composeSegments(dst []byte, t string) []byte {
	for i := 0; i < len(t); {
		j, alone := i+1, segmentStart(t[i])
		for ; j < len(t) && !segmentStart(t[j]); j++ {
			// A lead byte: a character of its own in the piece.
			alone = alone && t[j] < 0xC0
		}
		if alone {
			dst = append(dst, t[i:j]...)
		} else {
			dst = s.composePiece(dst, t[i:j])
		}
		i = j
	}
	return dst
}

// composePiece appends NFC of piece to dst, from s.pieces when it is
// there.
func (s *textScorer) composePiece(dst []byte, piece string) []byte {
	h := uint32(len(piece))
	for i := 0; i < len(piece); i++ {
		h = (h ^ uint32(piece[i])) * 0x01000193 // FNV-1a's prime
	}
	e := &s.pieces[h>>(32-6)]
	if int(e.nIn) == len(piece) && string(e.in[:e.nIn]) == piece {
		return append(dst, e.out[:e.nOut]...)
	}
	start := len(dst)
	dst = s.appendNFC(dst, piece)
	if out := dst[start:]; len(piece) <= len(e.in) && len(out) <= len(e.out) {
		e.nIn, e.nOut = uint8(copy(e.in[:], piece)), uint8(copy(e.out[:], out))
	}
	return dst
}

// appendNFC appends NFC of t to dst through s.iter, which, unlike
// norm.NFC.AppendString, allocates nothing on each call.
func (s *textScorer) appendNFC(dst []byte, t string) []byte {
	for s.iter.InitString(norm.NFC, t); !s.iter.Done(); {
		dst = append(dst, s.iter.Next()...)
	}
	return dst
}

// composed is a piece composeSegments composed, and its NFC.
type composed struct {
	in, out   [12]byte
	nIn, nOut uint8
}

// startersOnly reports, from its bytes, that t holds only characters below
// U+0300 and Cyrillic ones from U+0400 to U+047F: each is in Normalization
// Form C alone and combines with nothing before it
// (TestStartersOnlyNeedNoComposing), so t is in NFC and the dearer quick
// check can be skipped. Lead bytes 0xCC to 0xCF (U+0300..U+03FF, the
// combining marks and Greek) and 0xD2 and up answer false.
func startersOnly(t string) bool {
	for i := 0; i < len(t); i++ {
		if b := t[i]; b >= 0xCC && b != 0xD0 && b != 0xD1 {
			return false
		}
	}
	return true
}

// score is the language's log2 probability of the loaded text, or -Inf
// when the language has none of its non-ASCII letters (it could only call
// them all foreign: some other language will do better). pruned says the
// text costs more than limit bits, and the score is then -Inf too: every
// term is at least 0, so the sum only grows and, once it passes limit, the
// text cannot cost less (see pruneMargin). A limit of +Inf scores
// everything.
func (s *textScorer) score(l lang, limit float64) (score float64, pruned bool) {
	if len(s.words) > 0 && !s.hasLetterOf(&l) {
		return negInf, false
	}
	half := 0
	for _, w := range s.words {
		if s.fixed+float64(half)/2 > limit {
			return negInf, true
		}
		// Looked up word by word: a language that stops early looks
		// up no more.
		syms := s.symbols[:0]
		for _, g := range s.gs[w.start:w.end] {
			syms = append(syms, s.syms.find(&l, g.lower))
		}
		s.symbols = syms
		half += l.wordHalves(syms)
	}
	return -(s.fixed + float64(half)/2), false
}

// hasLetterOf reports whether a non-ASCII letter of the loaded words is in
// l's alphabet.
func (s *textScorer) hasLetterOf(l *lang) bool {
	for _, r := range s.highs {
		if s.syms.find(l, r) != 0 {
			return true
		}
	}
	return false
}
