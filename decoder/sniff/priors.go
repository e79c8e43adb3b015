package sniff

import (
	"net"
	"strings"

	"golang.org/x/text/language"
)

// Prior strengths in bits. A language the client asks for with q=1 is
// 2^6 = 64 times likelier; the server's country counts for less, as a site
// under .jp still gets English and Chinese visitors.
const (
	acceptLanguageBits = 6
	tldBits            = 3
)

// priors are bonuses in bits for languages named like the model names:
// "ja", "ko", "zh-Hans", "zh-Hant", "ru", "cs", ...
type priors []langBonus

type langBonus struct {
	lang string
	bits float64
}

func (p priors) of(lang string) float64 {
	b := 0.0
	for _, x := range p {
		if x.lang == lang {
			b += x.bits
		}
	}
	return b
}

// priorsFor reads the evidence of a request. Unparseable parts are ignored:
// evidence only shifts the guess.
func priorsFor(ev Evidence) priors {
	var p priors
	if ev.AcceptLanguage != "" {
		tags, qs, _ := language.ParseAcceptLanguage(ev.AcceptLanguage)
		for i, t := range tags {
			if l := modelLanguage(t); l != "" {
				p = append(p, langBonus{l, acceptLanguageBits * float64(qs[i])})
			}
		}
	}
	// Country-code TLDs have two letters (RFC 1591 § 2); a longer one is
	// generic, never an ISO 3166 alpha-3 code (.com is not Comoros).
	if tld := hostTLD(ev.Host); len(tld) == 2 {
		// The likely language of the TLD's region, by CLDR's likely
		// subtags: und-JP is ja-Jpan-JP, und-TW is zh-Hant-TW.
		if r, err := language.ParseRegion(tld); err == nil && r.IsCountry() {
			if t, err := language.Compose(r); err == nil {
				if l := modelLanguage(t); l != "" {
					p = append(p, langBonus{l, tldBits})
				}
			}
		}
	}
	return p
}

// modelLanguage names the language model for a tag: Chinese by script.
func modelLanguage(t language.Tag) string {
	base, conf := t.Base()
	if conf == language.No {
		return ""
	}
	switch b := base.String(); b {
	case "zh":
		if s, _ := t.Script(); s.String() == "Hant" {
			return "zh-Hant"
		}
		return "zh-Hans"
	case "nb", "nn", "no":
		return "da" // written Norwegian is closest to the Danish model
	default:
		return b
	}
}

// hostTLD is the last label of a host name, without port or final dot.
func hostTLD(host string) string {
	if host == "" {
		return ""
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if net.ParseIP(host) != nil {
		return ""
	}
	if i := strings.LastIndexByte(host, '.'); i >= 0 {
		return host[i+1:]
	}
	return ""
}
