package idn

import (
	"errors"
	"slices"
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
// "xn--mnchen-3ya.de"), and rejects the empty result and forbidden domain
// code points. A non-ASCII domain fails when UTS #46 rejects it; an ASCII
// one is only lowercased, even when one of its "xn--" labels is not valid
// IDNA (whatwg/url#914). domain must already be percent-decoded; use
// [ParseHost] for a host as it appears in a URL.
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
// the standard it always returns a result. When the domain as a whole does
// not pass UTS #46, each label is converted on its own and a label that
// fails keeps its input form, so that no invalid U-label is ever shown; the
// error says what failed.
func ToUnicode(domain string) (string, error) {
	s, err := domainToUnicode(domain)
	if err != nil {
		return s, &Error{Op: "ToUnicode", Host: domain, Err: err}
	}
	return s, nil
}

func domainToUnicode(domain string) (string, error) {
	s, err := whatwg.ToUnicode(domain)
	if err == nil && !slices.ContainsFunc(splitLabels(domain), badACELabel) && !slices.ContainsFunc(splitLabels(s), badACELabel) {
		return s, nil
	}
	if err == nil {
		err = errACELabel
	}
	// x/net/idna returns a partial result on error in which a label that
	// failed validation may already be decoded: rebuild label by label.
	labels := splitLabels(domain)
	for i, l := range labels {
		if badACELabel(l) {
			continue
		}
		if u, lerr := whatwg.ToUnicode(l); lerr == nil && !badACELabel(u) {
			labels[i] = u
		}
	}
	return strings.Join(labels, "."), err
}

// isLabelSeparator reports whether r separates labels: U+002E FULL STOP and
// the three other dots of RFC 3490 §3.1, which UTS #46 maps to it.
func isLabelSeparator(r rune) bool {
	return r == '.' || r == '\u3002' || r == '\uFF0E' || r == '\uFF61'
}

// splitLabels splits s at every label separator, keeping empty labels.
func splitLabels(s string) []string {
	var labels []string
	start := 0
	for i, r := range s {
		if isLabelSeparator(r) {
			labels = append(labels, s[start:i])
			start = i + len(string(r))
		}
	}
	return append(labels, s[start:])
}

// errACELabel is the cause when a label that starts with "xn--" is not a
// valid A-label in a way x/net/idna does not catch: UTS #46 Processing,
// step 4 (Convert/Validate), rejects "xn--" alone, whose decoding is empty,
// and a "xn--" label holding non-ASCII (see also golang/go#81116). The
// same test applied to a label once decoded catches an A-label whose
// U-label begins with "xn--" again, which Validity Criterion 4 refuses
// when CheckHyphens is false: "xn--xn--00000-00c" decodes to "xn--00ǒ000".
var errACELabel = errors.New(`"xn--" label is empty or not ASCII`)

// badACELabel reports whether l starts with "xn--" (ASCII case-insensitive)
// and is empty after it or not ASCII: cases x/net/idna lets through.
// Labels spelled with full-width or other mapped characters are not caught.
func badACELabel(l string) bool {
	return len(l) >= 4 && strings.EqualFold(l[:4], "xn--") && (len(l) == 4 || !isASCII(l))
}

// domainToASCII runs the steps of "domain to ASCII" and returns the bare
// cause on failure.
func domainToASCII(domain string) (string, error) {
	var s string
	if isASCII(domain) {
		// For an ASCII domain the result is its ASCII lowercasing, whether
		// UTS #46 ToASCII accepts it or not: the fast path of the standard's
		// note for domains without "xn--" labels, and for the rest the
		// fallback of whatwg/url#914 (tested by web-platform-tests#60476),
		// which keeps sites like "xn--8i7caa.famitei.net" reachable although
		// their A-labels are not valid IDNA.
		s = strings.ToLower(domain)
	} else {
		if slices.ContainsFunc(splitLabels(domain), badACELabel) {
			return "", errACELabel
		}
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

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
