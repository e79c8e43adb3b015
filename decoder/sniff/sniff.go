package sniff

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Evidence is what a request tells about its charset besides the bytes.
// The zero value means no evidence.
type Evidence struct {
	// AcceptLanguage is the request's Accept-Language header (RFC 9110
	// § 12.5.4): "ja,en;q=0.5" makes Japanese charsets likelier.
	AcceptLanguage string
	// Host is the server's host name (with or without a port); its
	// country-code TLD makes that country's language likelier.
	Host string
	// Candidates restricts the guess to these encodings (labels or WHATWG
	// names), for instance the family a bare "EUC" hint names: euc-jp,
	// euc-kr, gbk. Empty means every candidate the package knows.
	Candidates []string
}

// Guess is a charset and how sure the sniffer is of it.
type Guess struct {
	// Charset is the encoding's WHATWG name, as charset.Lookup accepts it.
	Charset string
	// Confidence is the guess's share of the weight of all the decodings
	// the bytes allow, from 0 to 1.
	Confidence float64
}

// Sniffer guesses the one charset shared by the byte strings of a request.
type Sniffer interface {
	// Sniff scores all samples jointly. ok is false when the samples hold
	// no byte that tells charsets apart (pure ASCII, which every candidate
	// decodes alike; the Guess is then zero) or when no candidate decodes
	// them all without error (the Guess then names the legacy candidate
	// with the fewest errors, with Confidence 0, or is zero when only
	// UTF-8 was allowed).
	Sniff(samples [][]byte, ev Evidence) (g Guess, ok bool)
}

// Detector is the package's Sniffer. The zero value is ready to use and
// safe for concurrent use.
type Detector struct{}

// New returns a Sniffer with the default candidates and tables.
func New() Sniffer { return Detector{} }

// temperature flattens the scores before they become a confidence: the
// language models are simple and would otherwise be overconfident.
const temperature = 1.5

// pruneMargin is how far, in bits, a candidate may fall below the best
// group scored so far before its scoring stops. Scores only fall as text is
// scored (every cost is at least 0), so a candidate pruned that far below
// can neither win nor lead its group, and its share of the confidence,
// 2^(-pruneMargin/temperature) = 2^-64 of the best group's, is below what
// a float64 beside 1 can hold: the Guess is the same as without pruning
// (TestPruningChangesNoGuess). Long UTF-8 forms were scored in full by
// every legacy candidate: 100 fields of accented text took 1.4 ms to sniff.
//
// Within a candidate, a language that cannot beat the candidate's best
// language so far stops the same way: the max is unchanged, exactly.
const pruneMargin = 64 * temperature

// pruning turns both off, for the test that holds them to changing nothing.
var pruning = true

// costLimit is limit, or +Inf (score everything) when pruning is off.
func costLimit(limit float64) float64 {
	if !pruning {
		return math.Inf(1)
	}
	return limit
}

// Sniff implements Sniffer.
func (Detector) Sniff(samples [][]byte, ev Evidence) (Guess, bool) {
	nHigh, esc := 0, false
	for _, s := range samples {
		for _, b := range s {
			if b >= 0x80 {
				nHigh++
			}
			esc = esc || b == 0x1B
		}
	}
	high := nHigh > 0
	if !high && !esc {
		return Guess{}, false
	}
	named := lookUp(ev.Candidates)
	utf8Valid := utf8Named(named) && high && allUTF8(samples)
	if utf8Valid && ordinaryUTF8(samples) {
		// A three- or four-byte sequence for a character of a script in
		// everyday use is one that legacy text seldom forms by chance (a
		// lead byte 0xE0..0xF4 followed by exactly two or three bytes
		// 0x80..0xBF), and every other multibyte sequence beside it, of
		// either length, makes that chance smaller still.
		return Guess{Charset: "utf-8", Confidence: utf8Confidence(samples)}, true
	}
	// Built on first use, here and not above: a process whose values are
	// ordinary UTF-8 never builds the legacy candidates (a third of a
	// small GET's request in perf record).
	cands := restrict(named)
	pri := priorsFor(ev)
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	var (
		// outcomes are the candidates' results, by place in cands.
		outcomes = growZero(sc.outcomes, len(cands))
		utf8Out  outcome
		floor    = negInf // pruneMargin below the best score so far
	)
	sc.outcomes = outcomes
	sc.resetTexts()
	sc.setPriors(pri)
	// count records score for a candidate whose decoding is sc.key, and
	// raises the floor. The floor is kept below the best candidate's
	// score, not its group's weight as in the confidence (which is a
	// little higher): a lower floor prunes a little less, never wrongly.
	count := func(o *outcome, score float64) {
		var t int
		if sc.keyClass >= 0 {
			t = sc.classText(sc.keyClass, samples)
		} else {
			t = sc.textID(sc.key, samples)
		}
		*o = outcome{score: score, counted: true, text: t}
		if pruning {
			floor = max(floor, score-pruneMargin)
		}
	}
	if utf8Valid {
		// Two-byte sequences (U+0080..U+07FF) also arise from legacy pairs
		// such as GBK's D1 A7 ("学"): UTF-8 competes, with its prior.
		sc.decoded = sc.decoded[:0]
		for _, s := range samples {
			// Valid UTF-8 reads as itself; the strings do not outlive
			// the call, and the samples are not written during it.
			sc.decoded = append(sc.decoded, unsafe.String(unsafe.SliceData(s), len(s)))
		}
		w := utf8Score(sc.decoded, pri, sc)
		sc.key, sc.keyClass = joinKey(sc.key[:0], sc.decoded), -1
		count(&utf8Out, w)
	}
	for _, i := range sc.evaluationOrder(cands, samples, pri, utf8Valid) {
		c, o := cands[i], &outcomes[i]
		if high && c.name == "iso-2022-jp" {
			// A 7-bit encoding (RFC 1468): any byte 0x80 and up is an
			// error (Encoding Standard § 12.2.1), so skip the decode.
			o.rejected = true
			continue
		}
		sc.keyClass = -1
		score, clean := c.evaluate(samples, pri, sc, floor)
		switch {
		case !clean:
			o.rejected = true
		case score >= floor: // else pruned, or as good as: see pruneMargin
			count(o, score)
		}
	}
	// The groups are made in candidate order, whatever the order of
	// evaluation, so that ties go to the earlier candidate.
	type group struct {
		weight float64 // log2 of the summed weights of the members
		best   *candidate
		score  float64
	}
	var (
		groupsArray [len(candidateList) + 1]group
		groups      = groupsArray[:0]
		// groupOf is the place in groups of each text's group, plus one:
		// sc.texts', then the readings' own (^text).
		groupOf = growZero(sc.groupOf, len(sc.texts)+len(sc.readings))
	)
	sc.groupOf = groupOf
	addGroup := func(c *candidate, o *outcome) {
		t := o.text
		if t < 0 {
			t = len(sc.texts) + ^t
		}
		if i := groupOf[t] - 1; i >= 0 {
			g := &groups[i]
			g.weight = sc.exp.logAdd(g.weight, o.score)
			if o.score > g.score {
				g.best, g.score = c, o.score
			}
			return
		}
		groups = append(groups, group{weight: o.score, best: c, score: o.score})
		groupOf[t] = len(groups)
	}
	if utf8Out.counted {
		addGroup(utf8Candidate, &utf8Out)
	}
	for i, c := range cands {
		if outcomes[i].counted {
			addGroup(c, &outcomes[i])
		}
	}
	if len(groups) == 0 {
		// Every candidate has errors: name the one with the fewest, the
		// earliest of those that tie.
		var fewest *candidate
		fewestN := math.MaxInt
		for i, c := range cands {
			if !outcomes[i].rejected {
				continue
			}
			if n := c.errors(samples, nHigh, sc); n < fewestN {
				fewest, fewestN = c, n
			}
		}
		if fewest == nil {
			return Guess{}, false
		}
		return Guess{Charset: fewest.name}, false
	}
	best := 0
	for i := range groups {
		if groups[i].weight > groups[best].weight {
			best = i
		}
	}
	sum := 0.0
	for i := range groups {
		d := (groups[i].weight - groups[best].weight) / temperature
		if d < -54 && sum >= 1 {
			// 2^d is under half a unit in the last place of sum: adding
			// it leaves sum as it is, without the dear call.
			continue
		}
		sum += exp2(d)
	}
	return Guess{Charset: groups[best].best.name, Confidence: 1 / sum}, true
}

// outcome is what Sniff learnt of a candidate.
type outcome struct {
	score float64
	// counted says the score is kept (it reached the floor), text its
	// decoding (as scratch.classText tells it); rejected says the
	// samples are invalid in it.
	counted, rejected bool
	text              int
}

// growZero is s resized to n zero values.
func growZero[T any](s []T, n int) []T {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}

// joinKey appends the decoded samples to key, each ended by a NUL, so that
// candidates decoding the bytes alike fall in one group.
func joinKey(key []byte, decoded []string) []byte {
	for _, t := range decoded {
		key = append(key, t...)
		key = append(key, 0)
	}
	return key
}

// appendGroupKey appends to dst the decoded text itself when short, its
// FNV-1a hash when long, so that large bodies are not copied once per
// group: two decodings of one input that differ yet hash alike are beyond
// any practical chance.
func appendGroupKey(dst, text []byte) []byte {
	if len(text) <= maxKeyed {
		return append(dst, text...)
	}
	dst = append(dst, 0xFF) // 0xFF never starts a UTF-8 text
	return fnv128a(dst, text)
}

// maxKeyed is the longest text whose group key is the text itself.
const maxKeyed = 1024

// fnv128a appends the FNV-1a hash of 128 bits of b to dst, as hash/fnv's
// New128a would, without the allocations of a hash.Hash.
func fnv128a(dst, b []byte) []byte {
	const (
		offsetHigh = 0x6c62272e07bb0142
		offsetLow  = 0x62b821756295c58d
		primeLow   = 0x13b // the prime is 2^88 + 0x13b
		primeShift = 24    // 88 - 64
	)
	hi, lo := uint64(offsetHigh), uint64(offsetLow)
	for _, c := range b {
		lo ^= uint64(c)
		h, l := bits.Mul64(primeLow, lo)
		hi, lo = h+lo<<primeShift+primeLow*hi, l
	}
	dst = binary.BigEndian.AppendUint64(dst, hi)
	return binary.BigEndian.AppendUint64(dst, lo)
}

// logAdd is log2(2^a + 2^b).
func logAdd(a, b float64) float64 { return (*expCache)(nil).logAdd(a, b) }

// logAdd is log2(2^a + 2^b), its dear term remembered in c (nil remembers
// nothing).
func (c *expCache) logAdd(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if a == b {
		// log2(2 * 2^a): candidates that read the samples alike and have
		// the same prior score alike, and 1 + 2^0 is 2, whose log2 is 1.
		return a + 1
	}
	if b < a-64 {
		// 1 + 2^(b-a) rounds to 1, whose log2 is 0: the same a, without
		// the two dear calls.
		return a
	}
	return a + c.of(b-a)
}

// expCache remembers what log2(1+2^d) gave for the differences of scores
// Sniff has met, as the function gave it: the same float64 in, the same
// out, to the last bit. A call merges a few groups' members (a Log2 and
// an exp2 for each), and the differences recur from call to call (-0.5
// between two candidates' priors, 1-log2(3) once two equal members
// merged): a pooled scratch keeps them. 2^d alone, which each group's
// share of the confidence takes, is computed (exp2 costs about what a
// look-up in the table did).
type expCache struct {
	slots [expSlots]struct {
		// key is math.Float64bits of d, complemented so that the zero
		// value is empty: ^0 would be a NaN, which is never cached.
		key uint64
		val float64
	}
	// computed counts the answers not found, for the test that holds the
	// cache to sparing them.
	computed int
}

// expSlots is the size of expCache's table: a uint8 indexes it.
const expSlots = 256

// of is log1pExp2(d), remembered (c may be nil: computed).
func (c *expCache) of(d float64) float64 {
	if c == nil || d-d != 0 {
		// Infinite or NaN: computed, never kept.
		return log1pExp2(d)
	}
	bits := math.Float64bits(d)
	slots := &c.slots
	// Fibonacci hashing, the top 8 bits; d is looked for in its slot and
	// the next, so that two differences of a call that share a slot do
	// not push each other out.
	h := uint8(bits * 0x9E3779B97F4A7C15 >> 56)
	if slots[h].key == ^bits {
		return slots[h].val
	}
	if slots[h+1].key == ^bits {
		return slots[h+1].val
	}
	v := log1pExp2(d)
	if slots[h].key != 0 {
		h++
	}
	slots[h].key, slots[h].val = ^bits, v
	c.computed++
	return v
}

// log1pExp2 is log2(1+2^d).
func log1pExp2(d float64) float64 {
	return math.Log2(1 + exp2(d))
}

// exp2 is math.Exp2(x) to the last bit (TestExp2IsMathExp2): on amd64
// math.Exp2 is math/exp.go's exp2 and expmulti in Go, whose last step,
// math.Ldexp(y, k), takes y apart and builds it again to scale it by 2^k.
// Where x is well inside the range of normal numbers, y·2^k is one
// multiplication by a power of two, which is exact; the argument reduction
// and the polynomial are Go's, step for step.
func exp2(x float64) float64 {
	if !(x > -1000 && x < 1000) { // NaN too
		return math.Exp2(x)
	}
	const (
		Ln2Hi = 6.93147180369123816490e-01
		Ln2Lo = 1.90821492927058770002e-10

		P1 = 1.66666666666666657415e-01  /* 0x3FC55555; 0x55555555 */
		P2 = -2.77777777770155933842e-03 /* 0xBF66C16C; 0x16BEBD93 */
		P3 = 6.61375632143793436117e-05  /* 0x3F11566A; 0xAF25DE2C */
		P4 = -1.65339022054652515390e-06 /* 0xBEBBBD41; 0xC5D26BF1 */
		P5 = 4.13813679705723846039e-08  /* 0x3E663769; 0x72BEA4D0 */
	)
	var k int
	switch {
	case x > 0:
		k = int(x + 0.5)
	case x < 0:
		k = int(x - 0.5)
	}
	t := x - float64(k)
	hi := t * Ln2Hi
	lo := -t * Ln2Lo
	r := hi - lo
	t = r * r
	c := r - t*(P1+t*(P2+t*(P3+t*(P4+t*P5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return y * math.Float64frombits(uint64(k+1023)<<52)
}

func allUTF8(samples [][]byte) bool {
	for _, s := range samples {
		if !utf8.Valid(s) {
			return false
		}
	}
	return true
}

// utf8Confidence grows with the multibyte sequences seen: legacy text that
// happens to be valid UTF-8 is rare and gets rarer with each one (a lead
// byte must be followed by exactly the right number of 0x80..0xBF bytes).
func utf8Confidence(samples [][]byte) float64 {
	n := 0
	for _, s := range samples {
		for _, b := range s {
			if b >= 0xC0 {
				n++
			}
		}
	}
	return 1 - math.Exp2(-3-4*float64(n))
}

// ordinaryUTF8 reports whether the samples, known to be valid UTF-8, hold a
// three- or four-byte sequence, and only for characters in everyday use.
// Two-byte sequences (U+0080..U+07FF) are let by beside one, not alone:
// alone, they arise from legacy pairs such as GBK's D1 A7 ("学"). Rarer
// three-byte ones arise from legacy text too (Thai in windows-874: E1 BC B9,
// "แผน", is U+1F39, polytonic Greek).
func ordinaryUTF8(samples [][]byte) bool {
	long := false
	for _, s := range samples {
		// Decoded in place: ranging over string(s) would copy each sample.
		for i := 0; i < len(s); {
			if s[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRune(s[i:])
			if size > 2 {
				if !ordinaryRune(r) {
					return false
				}
				long = true
			}
			i += size
		}
	}
	return long
}

// ordinaryRune is a character of U+0800 and up that text in a living
// language commonly holds. An unassigned code point is none: windows-874's
// E0 B7 BE, the Thai word "เทพ", is U+0DFE in UTF-8, inside the Sinhala block
// but no character.
func ordinaryRune(r rune) bool {
	switch {
	case r >= 0x0900 && r <= 0x137F: // Indic, Thai, Lao, Tibetan, Myanmar, Georgian, Ethiopic
	case r >= 0x1780 && r <= 0x17FF: // Khmer
	case r >= 0x1E00 && r <= 0x1EFF: // Vietnamese
	case r >= 0x2000 && r <= 0x2BFF: // punctuation, symbols, arrows
	case r >= 0x3000 && r <= 0x9FFF: // CJK
	case r >= 0xAC00 && r <= 0xD7A3: // hangul
	case r >= 0xFF00 && r <= 0xFFEF: // fullwidth and halfwidth forms
	case r >= 0x1F000 && r <= 0x1FAFF: // emoji
	case r >= 0x20000 && r <= 0x3FFFF: // CJK extensions
	default:
		return false
	}
	// Last, as the dearer test, reached only inside the ranges above; the
	// letters genericCost asks about always pass it.
	return unicode.IsGraphic(r)
}
