package idn

import (
	"errors"
	"strings"

	"golang.org/x/net/idna"
)

// whatwg is the UTS #46 profile the URL Standard's "domain to ASCII" and
// "domain to Unicode" use with beStrict false
// (https://url.spec.whatwg.org/#concept-domain-to-ascii): CheckHyphens false
// (labels like "r3---sn-apo3qvuoxuxbt-j5pe" are in real use), CheckBidi true,
// CheckJoiners true, UseSTD3ASCIIRules false (the URL Standard checks ASCII
// itself with its forbidden domain code points), Transitional_Processing false
// (so "ß" stays "ß", as UTS #46 since Unicode 15.1 and all current browsers
// do) and VerifyDnsLength false. idna.Lookup is not used because it sets
// UseSTD3ASCIIRules and CheckHyphens.
//
// Options are applied in order, so the ones after MapForLookup undo the
// STD3 rule it switches on. A *idna.Profile is safe for concurrent use.
var whatwg = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.Transitional(false),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(false),
)

// errEmptyDomain is the cause when domain to ASCII yields the empty string,
// which the URL Standard makes a failure (domain-to-ASCII validation error).
var errEmptyDomain = errors.New("domain is empty after domain to ASCII")

// ToASCII is the URL Standard's "domain to ASCII" with beStrict false: it maps
// domain with UTS #46 (case folding, NFC, width and compatibility mappings),
// encodes non-ASCII labels as punycode A-labels ("münchen.de" becomes
// "xn--mnchen-3ya.de"), validates existing "xn--" labels, and rejects the
// empty result and forbidden domain code points. domain must already be
// percent-decoded; use [ParseHost] for a host as it appears in a URL.
func ToASCII(domain string) (string, error) {
	s, err := domainToASCII(domain)
	if err != nil {
		return "", &Error{Op: "ToASCII", Host: domain, Err: err}
	}
	return s, nil
}

// ToUnicode is the URL Standard's "domain to Unicode"
// (https://url.spec.whatwg.org/#concept-domain-to-unicode): it turns A-labels
// into U-labels for display ("xn--mnchen-3ya.de" becomes "münchen.de"). Like
// the standard it always returns a result; labels it cannot convert are left
// as they are, and the error, if any, says why.
func ToUnicode(domain string) (string, error) {
	s, err := whatwg.ToUnicode(domain)
	if err != nil {
		return s, &Error{Op: "ToUnicode", Host: domain, Err: err}
	}
	return s, nil
}

// domainToASCII runs the steps of "domain to ASCII" and returns the bare
// cause on failure.
func domainToASCII(domain string) (string, error) {
	var s string
	if isASCII(domain) && !hasACELabel(domain) {
		// The standard's fast path: for an ASCII domain without "xn--"
		// labels, UTS #46 ToASCII amounts to ASCII lowercasing.
		s = strings.ToLower(domain)
	} else {
		var err error
		s, err = whatwg.ToASCII(domain)
		if err != nil {
			return "", err
		}
	}
	if s == "" {
		return "", errEmptyDomain
	}
	if err := checkDomainCodePoints(s); err != nil {
		return "", err
	}
	return s, nil
}

// hasACELabel reports whether some label of the ASCII domain s starts with an
// ASCII case-insensitive "xn--" (RFC 5890 §2.3.1).
func hasACELabel(s string) bool {
	for label := range strings.SplitSeq(s, ".") {
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
