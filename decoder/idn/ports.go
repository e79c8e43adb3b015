package idn

import "strings"

// schemePort is one row of the URL Standard's special-scheme table
// (https://url.spec.whatwg.org/#special-scheme), plus gopher.
type schemePort struct {
	scheme  string
	port    uint16 // 0: none
	special bool
}

// schemes lists the special schemes and their default ports. gopher (port
// 70, RFC 4266) was a special scheme until whatwg/url#453 (October 2019)
// removed it; it stays in this table for its port, since old server logs
// and CGI query strings still carry gopher URLs, but it is not special.
var schemes = [...]schemePort{
	{"ftp", 21, true},
	{"file", 0, true},
	{"http", 80, true},
	{"https", 443, true},
	{"ws", 80, true},
	{"wss", 443, true},
	{"gopher", 70, false},
}

func lookupScheme(scheme string) (schemePort, bool) {
	for _, s := range schemes {
		if strings.EqualFold(s.scheme, scheme) {
			return s, true
		}
	}
	return schemePort{}, false
}

// DefaultPort returns the default port of scheme (compared ASCII
// case-insensitively, as schemes are, RFC 3986 §3.1) following the URL
// Standard's table (https://url.spec.whatwg.org/#default-port): ftp 21,
// http 80, https 443, ws 80, wss 443, and gopher 70 from before whatwg/url#453.
// ok is false for file, which is special but has no port, and for every
// other scheme.
func DefaultPort(scheme string) (port uint16, ok bool) {
	s, found := lookupScheme(scheme)
	if !found || s.port == 0 {
		return 0, false
	}
	return s.port, true
}

// IsSpecialScheme reports whether the URL Standard parses URLs of scheme as
// special (https://url.spec.whatwg.org/#special-scheme): their hosts are
// domains, percent-decoded and run through domain to ASCII, which is what
// [ParseHost] does. gopher is not special since whatwg/url#453.
func IsSpecialScheme(scheme string) bool {
	s, found := lookupScheme(scheme)
	return found && s.special
}
