package sniff

import (
	"math"
	"slices"
	"sync"

	"github.com/cgigate/cgigate/decoder/charset"
)

// candidate is one legacy encoding the sniffer weighs.
type candidate struct {
	name string
	// base is the prior in bits: how often forms arrive in this encoding
	// compared with the others serving the same languages (windows-1251 is
	// far commoner than KOI8-R, Shift_JIS than EUC-JP).
	base float64
	// cjk is the CJK language whose text the encoding carries, or noCJK.
	cjk cjkLang
	// alpha are the indexes in alphaLangs of the alphabetic languages the
	// encoding writes.
	alpha []int
	// nfc marks windows-1258, whose Vietnamese is decomposed (a base letter
	// and a combining tone mark): it is composed before scoring.
	nfc bool
	// anyLanguage marks an encoding outside the candidate list, named by a
	// hint: its text is scored in every language, as UTF-8's is.
	anyLanguage bool
	c           *charset.Charset

	sbOnce sync.Once
	sb     *singleByte // for single-byte candidates but windows-1258
}

// candidateList is the order that breaks ties; names are WHATWG names.
var candidateList = []struct {
	name string
	base float64
	cjk  cjkLang
}{
	{"shift_jis", 0, cjkJa},
	{"euc-jp", -1, cjkJa},
	{"iso-2022-jp", -1, cjkJa},
	{"euc-kr", 0, cjkKo},
	{"gbk", 0, cjkHans},
	{"big5", -0.5, cjkHant},
	{"windows-1252", 0, noCJK},
	{"windows-1251", 0, noCJK},
	{"windows-1250", -0.5, noCJK},
	{"windows-1253", -0.5, noCJK},
	{"windows-1254", -1, noCJK},
	{"windows-1255", -0.5, noCJK},
	{"windows-1256", -0.5, noCJK},
	{"windows-1257", -1.5, noCJK},
	{"windows-1258", -1.5, noCJK},
	{"windows-874", -0.5, noCJK},
	{"koi8-r", -1.5, noCJK},
	{"koi8-u", -2.5, noCJK},
	{"iso-8859-2", -1.5, noCJK},
	{"iso-8859-7", -1, noCJK},
}

// candidates is built on first use: a CGI process that never sniffs never
// looks the encodings up.
var candidates = sync.OnceValue(func() []*candidate {
	out := make([]*candidate, 0, len(candidateList))
	for _, e := range candidateList {
		c := &candidate{name: e.name, base: e.base, cjk: e.cjk, nfc: e.name == "windows-1258", c: charset.MustLookup(e.name)}
		for i := range alphaLangs {
			if slices.Contains(alphaLangs[i].charsets, e.name) {
				c.alpha = append(c.alpha, i)
			}
		}
		out = append(out, c)
	}
	return out
})

// restrict keeps the candidates named by labels (all when labels is empty)
// and says whether UTF-8 may be the answer. Labels no encoding answers to
// are ignored; if none is left, nothing is restricted. An encoding outside
// the candidate list (a hint may name ISO-8859-5 or GB18030) is weighed
// too: GB18030 with GBK's model, any other with every language's.
func restrict(labels []string) (cands []*candidate, utf8Allowed bool) {
	all := candidates()
	if len(labels) == 0 {
		return all, true
	}
	var named []*charset.Charset
	for _, l := range labels {
		if c, err := charset.Lookup(l); err == nil && !slices.ContainsFunc(named, func(n *charset.Charset) bool { return n.Name() == c.Name() }) {
			named = append(named, c)
		}
	}
	if len(named) == 0 {
		return all, true
	}
	for _, c := range all {
		if slices.ContainsFunc(named, func(n *charset.Charset) bool { return n.Name() == c.name }) {
			cands = append(cands, c)
		}
	}
	for _, n := range named {
		switch name := n.Name(); {
		case name == "utf-8":
			utf8Allowed = true
		case name == "gb18030":
			cands = append(cands, &candidate{name: name, cjk: cjkHans, c: n})
		case !slices.ContainsFunc(all, func(c *candidate) bool { return c.name == name }):
			cands = append(cands, &candidate{name: name, cjk: noCJK, anyLanguage: true, c: n})
		}
	}
	return cands, utf8Allowed
}

// evaluate scores the samples in c (log2 probability in bits, higher is
// better, in the likeliest language c serves, priors included), leaving in
// sc.key the decoded text; nbad counts the invalid sequences, and the score
// means nothing unless it is 0.
func (c *candidate) evaluate(samples [][]byte, pri priors, sc *scratch) (score float64, nbad int) {
	if c.cjk == noCJK && !c.nfc && !c.anyLanguage {
		return c.scoreSingle(samples, pri, sc)
	}
	sc.decoded = sc.decoded[:0]
	for _, s := range samples {
		text, bad := c.c.Decode(s)
		sc.decoded = append(sc.decoded, text)
		nbad += len(bad)
	}
	sc.key = joinKey(sc.key[:0], sc.decoded)
	if nbad > 0 {
		return negInf, nbad
	}
	if c.anyLanguage {
		return utf8Score(sc.decoded, pri, sc) - utf8Bonus, 0
	}
	best := negInf
	if c.cjk != noCJK {
		s := 0.0
		for _, t := range sc.decoded {
			s -= cjkCost(c.cjk, t)
		}
		best = s + pri.of(cjkNames[c.cjk])
	}
	if len(c.alpha) > 0 {
		sc.text.load(sc.decoded)
		for _, i := range c.alpha {
			l := &alphaLangs[i]
			best = max(best, sc.text.score(l)+pri.of(l.name))
		}
	}
	if math.IsInf(best, -1) {
		// No language of c has these letters: price them as text in no
		// particular language.
		best = -genericCost(sc.decoded)
	}
	return best + c.base, 0
}
