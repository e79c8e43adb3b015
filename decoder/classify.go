package decoder

import "strings"

// Kind is what a query string holds.
type Kind int

const (
	Empty   Kind = iota // no query at all
	ISINDEX             // search words joined by '+' (RFC 3875 § 4.4)
	Form                // name=value pairs (HTML § 4.10.21.7)
)

func (k Kind) String() string {
	switch k {
	case ISINDEX:
		return "isindex"
	case Form:
		return "form"
	}
	return "empty"
}

// Classify tells what a raw query string holds. RFC 3875 § 4.4: a query
// string with no unencoded '=' is an ISINDEX search; an encoded "%3D" does
// not count. A leading charset hint ("[EUC-JP]:") is removed first.
func Classify(query string) Kind {
	if _, rest, ok := ParseHint(query); ok {
		query = rest
	}
	return classify(query)
}

func classify(query string) Kind {
	switch {
	case query == "":
		return Empty
	case strings.IndexByte(query, '=') >= 0:
		return Form
	}
	return ISINDEX
}
