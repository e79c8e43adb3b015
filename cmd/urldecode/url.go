package main

import (
	"strconv"
	"strings"

	"github.com/cgigate/cgigate/decoder/idn"
)

// rawURL is an input split into its components before anything is decoded:
// structure is found on raw bytes, so that no decoded character can forge
// a '/', '?' or '#'.
//
// The split is RFC 3986 Appendix B's, with the URL Standard's leniencies
// for special schemes (WHATWG URL § 4.4: any number of slashes or
// backslashes before the authority, '\' as a path separator). net/url
// cannot be used: it refuses malformed escapes and the control bytes that
// logs are full of, and its Path is already decoded as UTF-8.
type rawURL struct {
	Scheme       string // lower case; "" for a path or query alone
	HasAuthority bool
	Userinfo     string
	HasUserinfo  bool
	Host         string
	Port         string
	HasPort      bool
	Path         string
	Query        string
	HasQuery     bool
	Fragment     string
	HasFragment  bool
}

// inputKind is what an input turned out to be.
type inputKind int

const (
	kindURL   inputKind = iota // scheme:...
	kindPath                   // /path?query#fragment, an origin-form request target
	kindQuery                  // a QUERY_STRING alone
)

// scheme returns the scheme at the head of s (RFC 3986 § 3.1:
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), or "".
func scheme(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return s[:i]
		default:
			return ""
		}
	}
	return ""
}

// classifyInput tells a URL from a request target and a query string.
// A scheme counts only when the URL Standard would read it as one without
// a base (a special scheme or mailto), or when "//" follows it: "q=a:b" and
// "foo:bar" are queries.
func classifyInput(s string) inputKind {
	if sc := scheme(s); sc != "" {
		l := strings.ToLower(sc)
		if idn.IsSpecialScheme(l) || l == "mailto" || strings.HasPrefix(s[len(sc)+1:], "//") {
			return kindURL
		}
	}
	if strings.HasPrefix(s, "/") || s == "*" {
		return kindPath
	}
	return kindQuery
}

// splitURL splits s, which classifyInput said is kind k.
func splitURL(s string, k inputKind) rawURL {
	var u rawURL
	switch k {
	case kindQuery:
		u.Query, u.HasQuery = strings.TrimPrefix(s, "?"), true
		return u
	case kindURL:
		sc := scheme(s)
		u.Scheme = strings.ToLower(sc)
		s = s[len(sc)+1:]
	}
	special := idn.IsSpecialScheme(u.Scheme)
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s, u.Fragment, u.HasFragment = s[:i], s[i+1:], true
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s, u.Query, u.HasQuery = s[:i], s[i+1:], true
	}
	switch {
	case k == kindPath:
	case special && u.Scheme != "file":
		// WHATWG "special authority ignore slashes state".
		s = strings.TrimLeft(s, `/\`)
		u.HasAuthority = true
	case strings.HasPrefix(s, "//"):
		s = s[2:]
		u.HasAuthority = true
	}
	if u.HasAuthority {
		end := len(s)
		if i := strings.IndexAny(s, pathStarts(special)); i >= 0 {
			end = i
		}
		auth := s[:end]
		s = s[end:]
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			u.Userinfo, u.HasUserinfo, auth = auth[:at], true, auth[at+1:]
		}
		u.Host, u.Port, u.HasPort = splitHostPort(auth)
	}
	u.Path = s
	return u
}

func pathStarts(special bool) string {
	if special {
		return `/\`
	}
	return "/"
}

// splitHostPort cuts a port off at the last ':' outside brackets.
func splitHostPort(auth string) (host, port string, ok bool) {
	i := strings.LastIndexByte(auth, ':')
	if i < 0 || strings.IndexByte(auth[i:], ']') >= 0 {
		return auth, "", false // no ':', or only inside "[...]"
	}
	return auth[:i], auth[i+1:], true
}

// portError is a port the URL Standard refuses (§ 4.4 "port state").
type portError struct{ Port string }

func (e *portError) Error() string { return "invalid port " + strconv.Quote(e.Port) }

// parsePort reads a decimal port up to 65535. An empty port after a ':'
// is no port at all, as in the URL Standard.
func parsePort(p string) (n int, present bool, err error) {
	if p == "" {
		return 0, false, nil
	}
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return 0, false, &portError{p}
		}
		if n = n*10 + int(p[i]-'0'); n > 65535 {
			return 0, false, &portError{p}
		}
	}
	return n, true, nil
}

// segments splits a path into its segments after the leading '/', on '/'
// (and '\' in special URLs), as the URL Standard's path state does. The
// path "/" is one empty segment; an opaque path ("mailto:a@b") is one.
func segments(path string, special bool) []string {
	if path == "" {
		return nil
	}
	sep := pathStarts(special)
	if strings.IndexByte(sep, path[0]) >= 0 {
		path = path[1:]
	}
	var out []string
	for {
		i := strings.IndexAny(path, sep)
		if i < 0 {
			return append(out, path)
		}
		out = append(out, path[:i])
		path = path[i+1:]
	}
}
