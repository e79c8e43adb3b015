// Package cgihttp serves a cgi.Handler over net/http: in tests with
// net/http/httptest, and for the answers the gateway's -http mode gives
// itself before it starts a CGI child (a URI or a header too long to
// exec). It is the only place a cgi.Handler meets net/http, so that a CGI
// binary that does not import it links none of net/http (see package cgi).
// The FastCGI mode does not go through it: package cgi/fcgi serves a
// Handler over FastCGI without net/http.
package cgihttp

import (
	"net"
	"net/http"

	"github.com/cgigate/cgigate/cgi"
)

// Handler returns an http.Handler that answers with h under the CGI
// writer's rules: a panic is a 500 (cgi.Recover), and when the header goes
// out every field cgi.CheckHeader refuses is left out and named on stderr,
// and a missing Content-Type becomes text/plain; charset=utf-8
// (cgi.SanitizeHeader). A HEAD request's answer has no body.
func Handler(h cgi.Handler) http.Handler {
	h = cgi.Recover(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeCGI(&writer{w: w, head: r.Method == http.MethodHead}, Request(r))
	})
}

// Request is r as a cgi.Request. The query is r.URL.RawQuery: under
// FastCGI net/http/fcgi builds the URL from REQUEST_URI, as net/http/cgi
// does. The Proxy header is dropped (httpoxy, CVE-2016-5385), and the
// client's address loses its port, as REMOTE_ADDR has none.
func Request(r *http.Request) *cgi.Request {
	h := cgi.Header(r.Header.Clone())
	if h == nil {
		h = cgi.Header{}
	}
	h.Del("Proxy")
	remote := r.RemoteAddr
	if host, _, err := net.SplitHostPort(remote); err == nil {
		remote = host
	}
	cr := &cgi.Request{
		Method:        r.Method,
		Path:          r.URL.Path,
		RawQuery:      r.URL.RawQuery,
		Host:          r.Host,
		RemoteAddr:    remote,
		Header:        h,
		ContentLength: r.ContentLength,
	}
	if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
		cr.Body = r.Body
	}
	return cr
}

// writer is a cgi.ResponseWriter over an http.ResponseWriter: one header
// map, the two types being the same map type.
type writer struct {
	w    http.ResponseWriter
	sent bool
	// head drops a HEAD answer's body here, as the CGI writer does: the
	// net/http server would drop it, but net/http/fcgi passes it on to
	// the web server.
	head bool
	// location is the declared redirect (cgi.SeeOther).
	location string
}

// SetRedirect makes w a cgi.Redirector.
func (w *writer) SetRedirect(location string) { w.location = location }

func (w *writer) Header() cgi.Header { return cgi.Header(w.w.Header()) }

func (w *writer) WriteHeader(status int) {
	if !w.sent {
		w.sent = true
		cgi.SanitizeHeader(w.Header())
		if w.location != "" && status/100 == 3 {
			w.w.Header().Set("Location", w.location)
		}
	}
	w.w.WriteHeader(status)
}

func (w *writer) Write(p []byte) (int, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	if w.head {
		return len(p), nil
	}
	return w.w.Write(p)
}

// Flush sends what was written so far, when the server can.
func (w *writer) Flush() {
	if f, ok := w.w.(http.Flusher); ok {
		f.Flush()
	}
}
