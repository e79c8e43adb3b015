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
	best := negInf
	for l := range cjkNames {
		s := 0.0
		for _, t := range decoded {
			s -= cjkCost(cjkLang(l), t)
		}
		best = max(best, s+pri.of(cjkNames[l]))
	}
	sc.text.load(decoded)
	for i := range alphaLangs {
		l := &alphaLangs[i]
		best = max(best, sc.text.score(l)+pri.of(l.name))
	}
	return best + utf8Bonus
}
