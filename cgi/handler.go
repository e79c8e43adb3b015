package cgi

// A Handler answers one request. It is net/http's Handler without net/http:
// a CGI process is started for every request, and linking net/http (with
// crypto/tls, HTTP/2 and their package initialisation) costs each start
// more than the whole decoding of a form does (BENCHMARKS.md, "What costs
// what"). Package cgihttp serves a Handler over net/http, for FastCGI and
// tests.
type Handler interface {
	ServeCGI(ResponseWriter, *Request)
}

// HandlerFunc is a function used as a Handler.
type HandlerFunc func(ResponseWriter, *Request)

// ServeCGI calls f(w, r).
func (f HandlerFunc) ServeCGI(w ResponseWriter, r *Request) { f(w, r) }

// A ResponseWriter is where a Handler writes its answer, with the methods of
// net/http's: the header map, then the status (WriteHeader), then the body.
// Writing the body without WriteHeader sends 200. Whatever writes the
// header out applies SanitizeHeader first.
type ResponseWriter interface {
	Header() Header
	WriteHeader(status int)
	Write(p []byte) (int, error)
}
