package cgi

import (
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// validContentLength reports whether s is RFC 3875 § 4.1.2's 1*digit, of
// any length: a decimal past any limit, even past int64, is a valid
// length that is too large (413), not a malformed one (400).
// strconv.ParseInt, which net/http/cgi uses, also takes "-1" and "+5".
// (A loop, not a regexp: compiling one at init costs every CGI start.)
func validContentLength(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Request is a CGI request as the RFC 3875 meta-variables give it, and
// its body. Its fields have net/http's names where they mean the same.
type Request struct {
	Method string // REQUEST_METHOD
	Path   string // SCRIPT_NAME followed by PATH_INFO, as sent
	// PathInfo is PATH_INFO: the path after the script's own, as the
	// server decoded it (RFC 3875 § 4.1.5); "" when there is none.
	PathInfo string
	// Scheme is the scheme the client used: "https" when HTTPS is on,
	// else REQUEST_SCHEME (Apache 2.4), else "http".
	Scheme   string
	RawQuery string // QUERY_STRING, the query the server decided on
	Host     string // HTTP_HOST
	// RemoteAddr is the client's address (REMOTE_ADDR), without a port.
	RemoteAddr string
	// Header holds the HTTP_* meta-variables by header name (HTTP_ACCEPT
	// is Accept) and CONTENT_TYPE as Content-Type. It never holds Proxy.
	Header Header
	// ContentLength is CONTENT_LENGTH, or -1 for a POST whose length is
	// not known (a chunked request through Apache). A CONTENT_LENGTH past
	// int64 is math.MaxInt64, over every limit.
	ContentLength int64
	// Body is the body, cut at ContentLength; nil when there is none.
	Body io.Reader

	args   []string // argv from the server: ISINDEX words, compared only
	length string   // CONTENT_LENGTH as sent, for the message refusing it
}

// scheme is the request's scheme from HTTPS (which net/http/cgi and Apache
// set to "on" for TLS) and REQUEST_SCHEME.
func scheme(env map[string]string) string {
	switch h := env["HTTPS"]; {
	case strings.EqualFold(h, "on") || h == "1":
		return "https"
	case strings.EqualFold(env["REQUEST_SCHEME"], "https"):
		return "https"
	}
	return "http"
}

// FromProcess returns the request of the current CGI child process: its
// environment, os.Stdin and os.Args. It is RequestFromMap over the process
// state; see there.
func FromProcess() (*Request, error) {
	return RequestFromMap(Environ(os.Environ()), os.Args[1:], os.Stdin)
}

// Environ turns "KEY=value" strings into the map RequestFromMap takes.
func Environ(kv []string) map[string]string {
	m := make(map[string]string, len(kv))
	for _, s := range kv {
		if k, v, ok := strings.Cut(s, "="); ok {
			m[k] = v
		}
	}
	return m
}

// RequestFromMap builds the request of a CGI child from its RFC 3875
// meta-variables, which are the truth where net/http/cgi.RequestFromMap
// reads otherwise:
//
//   - QUERY_STRING is the query (RFC 3875 § 4.1.7). net/http/cgi builds
//     the URL from REQUEST_URI when it is set, which after a mod_rewrite
//     differs from the query the server decided on.
//   - CONTENT_LENGTH must be 1*digit (RFC 3875 § 4.1.2); "-1", "+5",
//     " 5", "1e3" are an *Error with status 400. Digits of any length are
//     a length: one over Limits.Body is 413 in ReadForm, and one past
//     int64 is kept as math.MaxInt64 to be refused the same way. RFC 3875 § 4.1.2
//     has the server set CONTENT_LENGTH for any body, but Apache sets none
//     for a chunked request and passes the de-chunked body on stdin,
//     closing it at the end: a POST without CONTENT_LENGTH has a body of
//     unknown length (ContentLength -1), read to its end within the
//     limits. Any other request without CONTENT_LENGTH has no body.
//   - The Proxy header (HTTP_PROXY, httpoxy, CVE-2016-5385) is dropped;
//     the gateway makes no outbound requests at all, and never reads
//     HTTP_PROXY from its environment.
//   - No meta-variable is parsed as a URL, so a control byte in PATH_INFO
//     or QUERY_STRING is data for the decoder to refuse, never a failure
//     to build the request.
//   - args are the words Apache puts in argv for an ISINDEX query (RFC
//     3875 § 7.2). They are kept to be compared with QUERY_STRING, and are
//     never read as options: that is the php-cgi attack (CVE-2012-1823,
//     CVE-2024-4577).
//
// The body is stdin, cut at CONTENT_LENGTH; ReadForm bounds and times its
// reading. When the environment is refused the request is still returned
// (with no body), so that the error can be answered in the format its
// Accept header asks for; it is nil only when no request can be built at
// all (no REQUEST_METHOD), a server fault.
func RequestFromMap(env map[string]string, args []string, stdin io.Reader) (*Request, error) {
	method := env["REQUEST_METHOD"]
	if method == "" {
		return nil, &Error{Status: StatusInternalServerError, Op: "environment", Msg: "not a CGI request: no REQUEST_METHOD (RFC 3875 § 4.1.12)", Err: ErrServer}
	}
	r := &Request{
		Method:     method,
		Path:       env["SCRIPT_NAME"] + env["PATH_INFO"],
		PathInfo:   env["PATH_INFO"],
		Scheme:     scheme(env),
		RawQuery:   env["QUERY_STRING"],
		Host:       env["HTTP_HOST"],
		RemoteAddr: env["REMOTE_ADDR"],
		Header:     Header{},
		args:       args,
	}
	for k, v := range env {
		name, ok := strings.CutPrefix(k, "HTTP_")
		if !ok || name == "HOST" || name == "PROXY" {
			continue
		}
		r.Header.Add(strings.ReplaceAll(name, "_", "-"), v)
	}
	if ct := env["CONTENT_TYPE"]; ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	clen, hasCL := env["CONTENT_LENGTH"]
	if hasCL && clen != "" && !validContentLength(clen) {
		return r, errorf(StatusBadRequest, "CONTENT_LENGTH", clen, "not a decimal byte count (RFC 3875 § 4.1.2)")
	}
	if !hasCL || clen == "" {
		if r.Method == "POST" && stdin != nil {
			r.ContentLength = -1
			r.Body = stdin
		}
		return r, nil
	}
	n, err := strconv.ParseInt(clen, 10, 64)
	if err != nil {
		n = math.MaxInt64 // only a range error is left: 1*digit past int64
	}
	r.ContentLength, r.length = n, clen
	if n > 0 && stdin != nil {
		r.Body = io.LimitReader(stdin, n)
	}
	return r, nil
}
