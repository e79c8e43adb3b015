package cgi

import (
	"context"
	"io"
	"net/http"
	gocgi "net/http/cgi"
	"os"
	"strconv"
	"strings"
)

// validContentLength accepts only ^[0-9]{1,10}$: RFC 3875 § 4.1.2 says
// 1*digit; ten digits bound it below 10 GB, far beyond any limit.
// strconv.ParseInt, which net/http/cgi uses, also takes "-1" and "+5".
// (A loop, not a regexp: compiling one at init costs every CGI start.)
func validContentLength(s string) bool {
	if len(s) < 1 || len(s) > 10 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

type infoKey struct{}

// info is what a CGI request carries beyond an *http.Request.
type info struct {
	args []string // argv from the server: ISINDEX words, compared only
	cgi  bool     // built from a CGI environment
}

func requestInfo(r *http.Request) info {
	i, _ := r.Context().Value(infoKey{}).(info)
	return i
}

// Request returns the request of the current CGI child process: its
// environment, os.Stdin and os.Args. It is RequestFromMap over the process
// state; see there.
func Request() (*http.Request, error) {
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
// meta-variables by way of net/http/cgi.RequestFromMap, then corrects what
// that function leaves to the caller:
//
//   - QUERY_STRING is the query (RFC 3875 § 4.1.7). net/http/cgi builds
//     the URL from REQUEST_URI when it is set, which after a mod_rewrite
//     differs from the query the server decided on; r.URL.RawQuery is
//     replaced by QUERY_STRING.
//   - CONTENT_LENGTH must match ^[0-9]{1,10}$ (RFC 3875 § 4.1.2); "-1",
//     "+5", " 5", "1e3" are an *Error with status 400. RFC 3875 § 4.1.2
//     has the server set CONTENT_LENGTH for any body, but Apache sets none
//     for a chunked request and passes the de-chunked body on stdin,
//     closing it at the end: a POST without CONTENT_LENGTH has a body of
//     unknown length (ContentLength -1), read to its end within the
//     limits. Any other request without CONTENT_LENGTH has no body.
//   - The Proxy header (HTTP_PROXY, httpoxy, CVE-2016-5385) is dropped;
//     the gateway makes no outbound requests at all, and never reads
//     HTTP_PROXY from its environment.
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
func RequestFromMap(env map[string]string, args []string, stdin io.Reader) (*http.Request, error) {
	clen, hasCL := env["CONTENT_LENGTH"]
	var clErr error
	if hasCL && clen != "" && !validContentLength(clen) {
		clErr = errorf(http.StatusBadRequest, "CONTENT_LENGTH", clen, "not a decimal byte count (RFC 3875 § 4.1.2)")
	}
	// net/http/cgi parses CONTENT_LENGTH itself and would refuse some of
	// the bad forms without building a request, and it parses the URL from
	// REQUEST_URI (or SCRIPT_NAME, PATH_INFO and QUERY_STRING), refusing a
	// control byte in any of them: client input, which must not make it
	// fail. Hand it a copy without those, and set the URL from the
	// meta-variables themselves.
	m := make(map[string]string, len(env))
	for k, v := range env {
		switch k {
		case "CONTENT_LENGTH", "REQUEST_URI", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING":
		default:
			m[k] = v
		}
	}
	r, err := gocgi.RequestFromMap(m)
	if err != nil {
		return nil, &Error{Status: http.StatusInternalServerError, Op: "environment", Msg: "not a CGI request", Err: err}
	}
	r.URL.Path = env["SCRIPT_NAME"] + env["PATH_INFO"]
	r.URL.RawPath = ""
	r.URL.RawQuery = env["QUERY_STRING"]
	r.URL.ForceQuery = false
	r.RequestURI = ""
	r.Header.Del("Proxy")
	r.Body = http.NoBody
	r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info{args: args, cgi: true}))
	if clErr != nil {
		return r, clErr
	}
	if !hasCL || clen == "" {
		if r.Method == http.MethodPost && stdin != nil {
			r.ContentLength = -1
			r.Body = io.NopCloser(stdin)
		}
		return r, nil
	}
	n, _ := strconv.ParseInt(clen, 10, 64)
	r.ContentLength = n
	if n > 0 {
		r.Body = io.NopCloser(io.LimitReader(stdin, n))
	}
	return r, nil
}
