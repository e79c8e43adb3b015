package sniff

import (
	"slices"

	"github.com/cgigate/cgigate/decoder/charset"
)

// maxReadingSniffs bounds the extra sniffs Readings runs: each is one Sniff
// of the same samples, so a request that asks for readings costs at most
// this many times its sniffing once more.
const maxReadingSniffs = 6

// Readings are the likeliest other readings of samples once the guess
// first is set aside, best first, at most n of them: s sniffs again among
// the candidates that are left (ev.Candidates, or all of the package's and
// UTF-8). A charset that decodes the samples to the same text as an
// earlier reading (windows-1250 and windows-1252 agree on many bytes) is
// no other reading and is passed over. Each Guess's Confidence is its
// share among the candidates left when it was found, not among all.
func Readings(s Sniffer, samples [][]byte, ev Evidence, first Guess, n int) []Guess {
	left := ev.Candidates
	if len(left) == 0 {
		left = append(left, "utf-8")
		for _, c := range candidateList {
			left = append(left, c.name)
		}
	}
	left = slices.Clone(left)
	var texts []string
	read := func(name string) (string, bool) {
		cs, err := charset.Lookup(name)
		if err != nil {
			return "", false
		}
		var text []byte
		for _, b := range samples {
			t, _ := cs.Decode(b)
			text = append(append(text, t...), 0)
		}
		if slices.Contains(texts, string(text)) {
			return "", false
		}
		texts = append(texts, string(text))
		return string(text), true
	}
	drop := func(name string) {
		left = slices.DeleteFunc(left, func(l string) bool {
			cs, err := charset.Lookup(l)
			return err != nil || cs.Name() == name
		})
	}
	read(first.Charset)
	drop(first.Charset)
	var out []Guess
	for try := 0; try < maxReadingSniffs && len(out) < n && len(left) > 0; try++ {
		g, ok := s.Sniff(samples, Evidence{AcceptLanguage: ev.AcceptLanguage, Host: ev.Host, Candidates: left})
		if !ok {
			break // no candidate left decodes every sample
		}
		drop(g.Charset)
		if _, other := read(g.Charset); other {
			out = append(out, g)
		}
	}
	return out
}
