package sniff

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"
	"unsafe"
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
	// syms[k][b] is byte b's symbol in the candidate's k-th language
	// (alphaLangs[c.alpha[k]]), the ASCII bytes' included: a letter is
	// looked up in one table, whatever its byte.
	syms [][0x100]uint8
}

// maxLangs bounds the languages of one candidate.
const maxLangs = 12

// scoreSingle scores a single-byte candidate; clean is false when a byte
// is invalid. A score below floor is not worth knowing: it is then -Inf
// (see evaluate). ok is false when the byte table cannot score the
// samples, windows-1258 text that needs composing: evaluate decodes it.
//
// Candidates that decode the samples alike share what each language makes
// of the text (sc.memo): a Latin text reads the same in windows-1252,
// windows-1250, ISO-8859-2 and more, and German is scored in it once, not
// once per candidate. The languages left to score score the text together,
// word by word, each stopping once it costs more than it may (see
// scoreLanguages), and the candidate stops when they all have: a paragraph
// in another charset is given up after a few words.
func (c *candidate) scoreSingle(samples [][]byte, pri priors, sc *scratch, floor float64) (score float64, clean, ok bool) {
	// The reading of the bytes 0x80 and up groups c with the candidates
	// that decode the samples alike, and keys what its languages make of
	// the text; the text itself is looked up only if Sniff counts c
	// (classText): a candidate pruned builds no key.
	cl, clean := sc.classOf(c, samples)
	if !clean {
		return negInf, false, true
	}
	var letters uint16 // with c.nfc: the lanes knowing a high letter of the words, and bit 15 if any
	if c.nfc {
		if !c.composed(samples) && !c.composesToItself(samples, sc) {
			if c.stopsWithoutComposing(samples, sc, floor) {
				return negInf, true, true
			}
			return 0, false, false
		}
		letters = sc.highLetters(c)
	}
	memo := &sc.memo[cl]
	var (
		limits [maxLangs]float64
		// alive are the lanes left to score, by place in c.lanes.
		alive  [maxLangs]uint8
		nAlive = 0
	)
	for k := range c.lanes {
		ln := &c.lanes[k]
		// score = pri + base - cost matters only if it reaches floor:
		// cost at most pri + base - floor.
		limits[k] = costLimit(sc.langPri[ln.li] + c.base - floor)
		if !memo[ln.li].knows(limits[k]) {
			alive[nAlive] = uint8(k)
			nAlive++
		}
	}
	if nAlive > 0 {
		c.scoreLanguages(samples, sc, memo, &limits, alive[:nAlive])
	}
	best, over := negInf, false
	for k := range c.lanes {
		ln := &c.lanes[k]
		if letters&hasHighLetter != 0 && letters&(1<<k) == 0 {
			continue // see textScorer.score: some other language does better
		}
		// A cost above the limit, known from a candidate that allowed
		// more, can only lose, as the -Inf of a stopped language does.
		if m := memo[ln.li]; !m.over {
			best = max(best, sc.langPri[ln.li]-m.cost)
		} else {
			over = true
		}
	}
	if c.nfc && math.IsInf(best, -1) && !over {
		// No language of c has these letters: evaluate prices them as
		// text in no particular language.
		return 0, false, false
	}
	sc.keyClass = cl
	return best + c.base, true, true
}

// reading is a way single-byte candidates read the samples' bytes 0x80 and
// up, the same rune for each: candidates reading them alike decode the
// samples to the same text, and those that do not to different ones.
type reading struct {
	by *candidate // the first candidate found to read them so
	// text is the text's place in sc.texts (classText), ownText for a
	// text of the reading's own, -1 until looked up.
	text int
}

// classOf is the place in sc.readings of c's reading of the samples, added
// if new with an empty memo; clean is false when c leaves a byte of them
// unassigned.
func (sc *scratch) classOf(c *candidate, samples [][]byte) (cl int, clean bool) {
	if !sc.highsKnown {
		// The distinct bytes 0x80 and up of the samples, once per call:
		// all of them, as validity is checked over every byte.
		var seen [2]uint64
		sc.highs = sc.highs[:0]
		for _, s := range samples {
			for _, b := range s {
				if h := b - 0x80; b >= 0x80 && seen[h>>6]&(1<<(h&63)) == 0 {
					seen[h>>6] |= 1 << (h & 63)
					sc.highs = append(sc.highs, h)
				}
			}
		}
		sc.highsKnown = true
	}
	// The candidates reading every high byte of the samples as c does:
	// the same set for each of them, named by its first member. A row of
	// sameReading serves every candidate, where a hash of each one's
	// runes read its own table and a search compared it with the readings
	// so far. A byte c leaves unassigned empties the set.
	same, i := &sameReading, c.index
	alike := ^uint32(0)
	for _, h := range sc.highs {
		alike &= same[h][i]
	}
	if alike == 0 {
		return -1, false
	}
	first := bits.TrailingZeros32(alike)
	if cl := sc.readingOf[first]; cl > 0 {
		return int(cl) - 1, true
	}
	sc.readings = append(sc.readings, reading{by: c, text: -1})
	sc.memo = append(sc.memo, [len(alphaLangs)]langMemo{})
	sc.readingOf[first] = int8(len(sc.readings))
	return len(sc.readings) - 1, true
}

// sameReading's sets are uint32s, a bit a candidate: they must fit.
const _ = uint32(1 << (len(candidateList) - 1))

// classText is the text the samples decode to in the reading cl, looked
// up once: its place in sc.texts, or ^cl for a text of the reading's own.
// Readings differ in the rune of a byte the samples hold, so their texts
// differ: a reading's text can only be one a decoder wrote (a multibyte
// candidate's, UTF-8's) of as many characters, one a byte, compared with
// the samples as read, and is otherwise a text of its own that needs no
// key. textID lists those texts in sc.readable as it adds them: every
// reading of a call has as many characters, and a short value's readings
// would each pass over the decoders' shorter texts.
func (sc *scratch) classText(cl int, samples [][]byte) int {
	r := &sc.readings[cl]
	switch {
	case r.text >= 0:
		return r.text
	case r.text == ownText:
		return ^cl
	}
	keyed := false // sc.key holds the reading's key
	for _, i := range sc.readable {
		t := &sc.texts[i]
		if t.runes < 0 {
			// A long text, known by its hash: the reading's is needed.
			if !keyed {
				sc.key, _ = r.by.appendKey(sc.key[:0], samples)
				keyed = true
			}
			if sameText(t.key, sc.key) {
				r.text = i
				return i
			}
		} else if r.by.readsAs(samples, t.key) {
			r.text = i
			return i
		}
	}
	r.text = ownText
	return ^cl
}

// ownText marks a reading whose text no decoder wrote.
const ownText = -2

// readingRunes is the number of characters of the samples' text in any
// reading, their NULs included (joinKey's form): one a byte.
func readingRunes(samples [][]byte) int {
	n := len(samples)
	for _, s := range samples {
		n += len(s)
	}
	return n
}

// readsAs reports whether c's byte table decodes the samples to key
// (joinKey's form): read in step, the first byte that differs ends it.
func (c *candidate) readsAs(samples [][]byte, key []byte) bool {
	j := 0
	for _, s := range samples {
		for _, b := range s {
			if b < 0x80 {
				if j >= len(key) || key[j] != b {
					return false
				}
				j++
				continue
			}
			var buf [utf8.UTFMax]byte
			e := utf8.EncodeRune(buf[:], c.sb.runes[b-0x80])
			if !bytes.HasPrefix(key[j:], buf[:e]) {
				return false
			}
			j += e
		}
		if j >= len(key) || key[j] != 0 {
			return false
		}
		j++
	}
	return j == len(key)
}

// setPriors looks up in pri the bonus of each alphabetic language, once
// per call, for the single-byte candidates' lanes.
func (sc *scratch) setPriors(pri priors) {
	if len(pri) == 0 {
		clear(sc.langPri[:])
		return
	}
	for i := range alphaLangs {
		sc.langPri[i] = pri.of(alphaLangs[i].name)
	}
}

// hasHighLetter is the bit of highLetters' answer that says the words hold a
// high letter at all.
const hasHighLetter = 1 << 15

// composed reports whether c's byte table scores the samples exactly as
// textScorer.load would score their decoding: within scoreLimit, and
// without a combining mark (U+0300..U+036F, windows-1258's five tone
// marks), without which every character c decodes to is in Normalization
// Form C alone and after any other (TestWindows1258ComposesOnlyItsMarks):
// there is nothing to compose.
func (c *candidate) composed(samples [][]byte) bool {
	n := len(samples) - 1 // the spaces between samples
	for _, s := range samples {
		n += len(s)
		if c.hasMark(s) {
			return false
		}
	}
	return n <= scoreLimit
}

// composesToItself reports, for samples of a short value (stableLimit)
// whose decoding by c holds a combining mark, that Normalization Form C
// leaves that decoding as it is: each mark follows a letter it does not
// compose with ("ÿ" and U+0301, where a windows-1251 "ям" is read as
// windows-1258). The byte table then scores the samples exactly as
// textScorer.load would score their decoding, the marks being glyphs of
// the table like any other letter, and the text needs no decoder
// (TestMarksThatComposeWithNothingAreScoredByTheTable).
func (c *candidate) composesToItself(samples [][]byte, sc *scratch) bool {
	if readingRunes(samples)-1 > stableLimit { // the samples, a space between each two
		return false
	}
	for i := range samples {
		// Every byte is assigned (classOf): appendKey decodes them all,
		// and ends the sample with a NUL, left out.
		sc.out, _ = c.appendKey(sc.out[:0], samples[i:i+1])
		t := sc.out[:len(sc.out)-1]
		sc.text.nfc = sc.text.composeSegments(sc.text.nfc[:0], unsafe.String(unsafe.SliceData(t), len(t)))
		if !bytes.Equal(sc.text.nfc, t) {
			return false
		}
	}
	return true
}

// stableLimit is the longest text composesToItself looks at. A longer one,
// a paragraph, is left to stopsWithoutComposing, which gives up most of
// them after a few words, where the look would decode and compose them
// whole.
const stableLimit = 64

// hasMark reports whether c decodes a byte of s to a combining mark.
func (c *candidate) hasMark(s []byte) bool {
	for _, b := range s {
		if b >= 0x80 && isCombining(c.sb.runes[b-0x80]) {
			return true
		}
	}
	return false
}

// stopsWithoutComposing reports, for windows-1258 text its byte table
// cannot score, that the words without a combining mark already cost each
// of c's languages more than its limit under floor, and that one of them
// knows a letter 0x80 and up of these words: evaluateDecoded would then
// find every language either stopped or scoring below floor, never pricing
// the text as in no language, so c is not counted either way and need not
// decode and compose it. Composing leaves these words, and what is not a
// letter, as they are (every character windows-1258 decodes to but its
// marks is in NFC alone and after any other), and every term of the cost
// is at least 0: the words with a mark, left out, only add to it. The last
// word is left out too, which the cut at scoreLimit may end. For the same
// reason it reads no further once every language is past its limit: over
// the corpus's legacy paragraphs it reads 550 words where it read 901.
func (c *candidate) stopsWithoutComposing(samples [][]byte, sc *scratch, floor float64) bool {
	if math.IsInf(costLimit(c.base-floor), 1) {
		return false // no limit
	}
	bs := sc.joined(samples)
	sp := splitter{bs: bs, high: &c.sb.glyphs}
	var (
		halves         [maxLangs]int
		fixed, skipped float64 // skipped: the case costs of the words left out
		letters        uint16  // the lanes knowing a high letter of the words
	)
	for {
		w, ok := sp.next(&fixed)
		if !ok {
			break
		}
		word := bs[w.start:w.end]
		if int(w.end) == len(bs) || c.hasMark(word) {
			skipped += sp.caseCost(int(w.start), int(w.end))
			continue
		}
		letters |= c.laneLetters(word) &^ hasHighLetter
		passed := true
		for k := range c.lanes {
			ln := &c.lanes[k]
			halves[k] += ln.wordHalves(word)
			// Every term of the cost is at least 0: once every lane
			// is past the bound below by more than the rounding of
			// the sums (driftSlack), the rest of the text can only
			// add, and need not be read.
			passed = passed && fixed-skipped+float64(halves[k])/2 > sc.langPri[ln.li]+c.base-floor+1+driftSlack
		}
		if passed && letters != 0 {
			return true
		}
	}
	if letters == 0 {
		return false
	}
	for k, ln := range c.lanes {
		// A bit of slack for the rounding of the subtraction, and of
		// evaluateDecoded's limit.
		if fixed-skipped+float64(halves[k])/2 <= sc.langPri[ln.li]+c.base-floor+1 {
			return false
		}
	}
	return true
}

// driftSlack is more, in bits, than the rounding of the few thousand
// additions a cost of scoreLimit characters sums (each off by at most half
// a unit in the last place of a sum below 2^18, about 2^-35): a partial
// cost past a bound by more is past it when summed to the end.
const driftSlack = 1.0 / 1024

// isCombining reports whether r is in the Combining Diacritical Marks block.
func isCombining(r rune) bool { return r >= 0x300 && r <= 0x36F }

// highLetters tells, for a candidate with a byte table, which of its lanes
// know a letter 0x80 and up of the samples (bit k for lane k), and whether
// there is any such letter (hasHighLetter): textScorer.score's rule. It
// asks about each distinct byte once: sc.highs, as classOf listed them.
func (sc *scratch) highLetters(c *candidate) (letters uint16) {
	for _, h := range sc.highs {
		letters |= c.byteLanes(0x80 + h)
	}
	return letters
}

// laneLetters is highLetters of one run of bytes.
func (c *candidate) laneLetters(s []byte) (letters uint16) {
	for _, b := range s {
		if b >= 0x80 {
			letters |= c.byteLanes(b)
		}
	}
	return letters
}

// byteLanes is highLetters of byte b, 0x80 and up.
func (c *candidate) byteLanes(b byte) (letters uint16) {
	if c.sb.glyphs[b-0x80].flags&fWord == 0 {
		return 0
	}
	letters = hasHighLetter
	for k := range c.lanes {
		// Set without a branch: which lanes know a letter follows no
		// pattern.
		letters |= uint16(min(c.lanes[k].syms[b], 1)) << k
	}
	return letters
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

// textID is the text key decodes to (joinKey's form), as classText
// answers: a decoder's text, told apart from the others by group key
// (appendGroupKey), found by a hash first, and from the readings' own
// texts by how they read the samples; added to sc.texts if new.
func (sc *scratch) textID(key []byte, samples [][]byte) int {
	h := hashKey(key)
	for i, t := range sc.texts {
		if t.hash == h && sameText(t.key, key) {
			return i
		}
	}
	runes := -1 // unknown: a long text is compared by its hash
	if len(key) <= maxKeyed {
		runes = runeCount(key)
	}
	readable := runes < 0 || runes == readingRunes(samples)
	if readable {
		for cl := range sc.readings {
			if r := &sc.readings[cl]; r.text == ownText && r.by.readsAs(samples, key) {
				return ^cl
			}
		}
		sc.readable = append(sc.readable, len(sc.texts))
	}
	n := len(sc.textKeys)
	sc.textKeys = appendGroupKey(sc.textKeys, key)
	sc.texts = append(sc.texts, text{key: sc.textKeys[n:len(sc.textKeys):len(sc.textKeys)], hash: h, runes: runes})
	return len(sc.texts) - 1
}

// runeCount is the number of characters of valid UTF-8 b: its bytes but
// the continuation bytes. (utf8.RuneCount allocates a string of b.)
func runeCount(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// sameText reports whether key decodes to the text whose group key is gk.
func sameText(gk, key []byte) bool {
	if len(key) <= maxKeyed {
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

// text is a decoding of the samples by a decoder one Sniff call has seen.
type text struct {
	key  []byte // its group key, in sc.textKeys
	hash uint64 // hashKey of the decoded text
	// runes are the text's characters, or -1 for one longer than
	// maxKeyed.
	runes int
}

// resetTexts forgets every text.
func (sc *scratch) resetTexts() {
	sc.textKeys, sc.texts, sc.memo = sc.textKeys[:0], sc.texts[:0], sc.memo[:0]
	sc.readings, sc.highsKnown = sc.readings[:0], false
	sc.readingOf = [len(candidateList)]int8{}
	sc.readable = sc.readable[:0]
}

// lane is one of a single-byte candidate's languages, with the tables
// scoring reads: made once with the candidates, so that a call sets up no
// state per language but its running cost.
type lane struct {
	li      int           // the language's place in alphaLangs
	name    string        // alphaLangs[li].name, for the priors
	syms    *[0x100]uint8 // singleByte.syms[k]
	bigrams string
	m       int // symbols in the language: bigrams' row length
}

// scoreLanguages scores the samples in the lanes of c listed in alive,
// those memo does not know under limits, and tells memo. Once a lane costs
// more than its limit it is dropped from the list.
func (c *candidate) scoreLanguages(samples [][]byte, sc *scratch, memo *[len(alphaLangs)]langMemo, limits *[maxLangs]float64, alive []uint8) {
	bs := sc.joined(samples)
	lanes := c.lanes
	sp := splitter{bs: bs, high: &c.sb.glyphs}
	fixed := 0.0
	var halves [maxLangs]int // each lane's letter-pair costs so far
	for len(alive) > 0 {
		w, ok := sp.next(&fixed)
		if !ok {
			break
		}
		word := bs[w.start:w.end]
		for j := 0; j < len(alive); {
			k := alive[j]
			ln := &lanes[k]
			half := halves[k] + ln.wordHalves(word)
			halves[k] = half
			if fixed+float64(half)/2 > limits[k] {
				memo[ln.li] = langMemo{cost: limits[k], over: true}
				alive[j] = alive[len(alive)-1]
				alive = alive[:len(alive)-1]
				continue
			}
			j++
		}
	}
	for _, k := range alive {
		memo[lanes[k].li] = langMemo{cost: fixed + float64(halves[k])/2}
	}
}

// wordHalves is lang.wordHalves of a word of the candidate's bytes, each
// byte's symbol looked up in place.
func (ln *lane) wordHalves(word []byte) (half int) {
	prev := 0
	for _, b := range word {
		sym := int(ln.syms[b])
		// Read whatever sym is (a foreign letter reads the pair that
		// ends a word, in the table too) and chosen without a branch:
		// whether a letter is foreign follows no pattern.
		d := digit(ln.bigrams[prev*ln.m+sym])
		if sym == 0 {
			d = 2 * foreignLetter
		}
		half += d
		prev = sym
	}
	return half + digit(ln.bigrams[prev*ln.m])
}

// joined is the samples separated by spaces and cut at scoreLimit, the
// bytes textScorer.load would read: a single sample is itself.
func (sc *scratch) joined(samples [][]byte) []byte {
	if len(samples) == 1 && len(samples[0]) <= scoreLimit {
		return samples[0]
	}
	bs := sc.bytes[:0]
	for i, s := range samples {
		if i > 0 {
			bs = append(bs, ' ')
		}
		bs = append(bs, s[:max(0, min(len(s), scoreLimit-len(bs)))]...)
	}
	sc.bytes = bs
	return bs
}

// appendKey appends the samples as c decodes them, each ended by a NUL
// (joinKey's form); ok is false, and key unfinished, at a byte c leaves
// unassigned.
func (c *candidate) appendKey(key []byte, samples [][]byte) (_ []byte, ok bool) {
	sb := c.sb
	for _, s := range samples {
		for i := 0; i < len(s); {
			// ASCII reads as itself in every candidate: copied a run at
			// a time, found eight bytes at a time.
			j := i + asciiPrefix(s[i:])
			key = append(key, s[i:j]...)
			for ; j < len(s) && s[j] >= 0x80; j++ {
				b := s[j] - 0x80
				if !sb.valid[b] {
					return key, false
				}
				if r := sb.runes[b]; r < 0x800 {
					key = append(key, 0xC0|byte(r>>6), 0x80|byte(r)&0x3F)
				} else {
					key = utf8.AppendRune(key, r)
				}
			}
			i = j
		}
		key = append(key, 0)
	}
	return key, true
}

// asciiPrefix is the number of bytes below 0x80 that s starts with.
func asciiPrefix(s []byte) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if binary.LittleEndian.Uint64(s[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s) && s[i] < 0x80; i++ {
	}
	return i
}
