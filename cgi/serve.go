package cgi

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
)

// Serve answers the current CGI request with h and returns once the answer
// is written: the request from the process (FromProcess), the answer to
// stdout. The caller should exit right after it: mod_cgid waits for both
// stdout and stdin to close, so nothing may outlive the answer holding
// them.
//
// net/http/cgi.Serve is not used because it builds its request itself
// (REQUEST_URI over QUERY_STRING, CONTENT_LENGTH by strconv.ParseInt, no
// deadline on stdin) and sniffs a Content-Type when the handler sets none.
func Serve(h Handler, l Limits) error {
	return ServeEnv(h, l, Environ(os.Environ()), os.Args[1:], os.Stdin, os.Stdout)
}

// ServeEnv is Serve over a given environment, argv, stdin and stdout: the
// pure twin tests and other hosts use. A refused environment (a bad
// CONTENT_LENGTH) is answered with its error without calling h; a panic in
// h is a 500 whose reason goes to stderr. The answer to a HEAD request is
// the header a GET would get, without the body (RFC 3875 § 4.3.2). The
// error returned is a server fault: no request at all, or stdout failing.
//
// The body is read under l.ReadTimeout for the whole request: a stdin
// that is a ReadDeadliner (a connection) is given that deadline, any
// other is pumped by a goroutine under a timer. Once the
// answer is written, what is left of the body is read and discarded (up to
// CONTENT_LENGTH, within the same deadline): under mod_cgid stdin and
// stdout are one socket, and closing it with unread input resets it, so
// Apache loses the answer (a 413 or 415 sent before the body was read).
func ServeEnv(h Handler, l Limits, env map[string]string, args []string, stdin io.Reader, stdout io.Writer) error {
	req, err := RequestFromMap(env, args, stdin)
	bw := bufWriters.Get().(*bufio.Writer)
	bw.Reset(stdout)
	defer func() {
		bw.Reset(nil) // holds nothing of the request while pooled
		bufWriters.Put(bw)
	}()
	w := &response{bw: bw, header: Header{}, head: req != nil && req.Method == "HEAD"}
	if req != nil && req.Body != nil {
		body, release := bodyUnderDeadline(req.Body, stdin, l.readTimeout(), req.ContentLength)
		req.Body = body
		defer func() {
			io.Copy(io.Discard, body)
			release()
		}()
	}
	switch {
	case req == nil:
		WriteError(w, nil, err)
	case err != nil:
		WriteError(w, req, err)
	default:
		Recover(h).ServeCGI(w, req)
	}
	if ferr := w.finish(); ferr != nil {
		return ferr
	}
	if req == nil {
		return err
	}
	return nil
}

// bufWriters keeps the answers' buffers from one request to the next in a
// long-lived (FastCGI) server: a new one is 4 KiB a request.
var bufWriters = sync.Pool{New: func() any { return bufio.NewWriter(nil) }}

// Recover turns a panic in h into a 500 (when nothing was written yet),
// with the panic and its stack on stderr: never a crash, and never the
// server's internals in the answer.
func Recover(h Handler) Handler {
	return HandlerFunc(func(w ResponseWriter, r *Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				log.Printf("cgigate: panic: %v\n%s", v, debug.Stack())
				if !tw.wrote {
					WriteError(tw, r, fmt.Errorf("%w: panic: %v", ErrServer, v))
				}
			}
		}()
		h.ServeCGI(tw, r)
	})
}

type trackingWriter struct {
	ResponseWriter
	wrote bool
}

// SetRedirect passes a declared redirect on to the writer underneath.
func (t *trackingWriter) SetRedirect(location string) {
	if rd, ok := t.ResponseWriter.(Redirector); ok {
		rd.SetRedirect(location)
	}
}

func (t *trackingWriter) WriteHeader(code int) { t.wrote = true; t.ResponseWriter.WriteHeader(code) }
func (t *trackingWriter) Write(p []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(p)
}

// SanitizeHeader is what every writer of the gateway's answers does just
// before the header goes out, the CGI writer here and package cgihttp's
// for net/http: it removes each field that CheckHeader refuses (CR, LF or
// NUL in a value; Location, Transfer-Encoding, Content-Length, Status),
// naming it on stderr, and gives an answer without a Content-Type
// text/plain; charset=utf-8 rather than a sniffed one.
func SanitizeHeader(h Header) {
	for k, vs := range h {
		for _, v := range vs {
			if err := CheckHeader(k, v); err != nil {
				log.Printf("cgigate: header refused: %v", err)
				delete(h, k)
				break
			}
		}
	}
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", Text.ContentType())
	}
}

// response writes a CGI answer (RFC 3875 § 6): a Status header, the
// handler's headers, a blank line, the body. It is the gateway's one header
// writer: every header goes through SanitizeHeader, so none carries CR, LF or
// NUL and none is Location, Content-Length or Transfer-Encoding; a refused
// header is left out and named on stderr. A response without a
// Content-Type gets text/plain; charset=utf-8 rather than a sniffed one.
type response struct {
	bw     *bufio.Writer
	header Header
	wrote  bool
	err    error
	// head is set for a HEAD request, whose answer the script "MUST NOT"
	// give a body (RFC 3875 § 4.3.2): the header goes out as for GET, and
	// the body's bytes are counted as written and dropped.
	head bool
	// location is the declared redirect (SeeOther), sent after the
	// header is sanitised and only with a 3xx status.
	location string
}

func (r *response) Header() Header { return r.header }

// SetRedirect makes r a Redirector.
func (r *response) SetRedirect(location string) { r.location = location }

func (r *response) WriteHeader(code int) {
	if r.wrote {
		return
	}
	r.wrote = true
	if code < 100 || code > 999 {
		code = StatusInternalServerError
	}
	r.bw.WriteString("Status: ")
	r.bw.Write(strconv.AppendInt(r.bw.AvailableBuffer(), int64(code), 10))
	r.line(" ", StatusText(code))
	SanitizeHeader(r.header)
	if loc, ok := redirectHeader(r.location, code); ok {
		r.line("Location: ", loc)
	}
	for _, k := range slices.Sorted(maps.Keys(r.header)) {
		for _, v := range r.header[k] {
			r.line(k, ": ", v)
		}
	}
	r.bw.WriteString("\r\n")
}

// line writes a header line: its parts, then CRLF.
func (r *response) line(parts ...string) {
	for _, p := range parts {
		r.bw.WriteString(p)
	}
	r.bw.WriteString("\r\n")
}

func (r *response) Write(p []byte) (int, error) {
	if !r.wrote {
		r.WriteHeader(StatusOK)
	}
	if r.err != nil {
		return 0, r.err
	}
	if r.head {
		return len(p), nil
	}
	n, err := r.bw.Write(p)
	r.err = err
	return n, err
}

func (r *response) Flush() { r.bw.Flush() }

func (r *response) finish() error {
	if !r.wrote {
		r.WriteHeader(StatusOK)
	}
	if err := r.bw.Flush(); err != nil {
		return err
	}
	return r.err
}
