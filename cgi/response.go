package cgi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"log"
	"mime"
	"net/textproto"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cgigate/cgigate/internal/lazy"
	"golang.org/x/net/http/httpguts"
)

// Format is a rendering of a response, chosen by the Accept header.
type Format int

const (
	HTML Format = iota // text/html; charset=utf-8, the default
	JSON               // application/json; charset=utf-8
	Text               // text/plain; charset=utf-8
)

// ContentType is the Content-Type a Format is served with. Every response
// names its type and charset itself: Go's CGI code would sniff one from
// the first bytes, and a browser left to guess a charset may guess UTF-7.
func (f Format) ContentType() string {
	switch f {
	case JSON:
		return "application/json; charset=utf-8"
	case Text:
		return "text/plain; charset=utf-8"
	}
	return "text/html; charset=utf-8"
}

// Negotiate picks the Format an Accept header prefers (RFC 9110 § 12.5.1):
// the media range with the highest q among text/html, application/json and
// text/plain, ties going in that order; HTML when nothing matches.
func Negotiate(accept string) Format {
	best, bestQ, bestSpec := HTML, -1.0, -1
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if v, err := strconv.ParseFloat(s, 64); err == nil && v >= 0 && v <= 1 {
				q = v
			}
		}
		if q == 0 {
			continue
		}
		for _, c := range []struct {
			f  Format
			mt string
		}{{HTML, "text/html"}, {JSON, "application/json"}, {Text, "text/plain"}} {
			spec := specificity(mt, c.mt)
			if spec < 0 {
				continue
			}
			if q > bestQ || q == bestQ && (spec > bestSpec || spec == bestSpec && c.f < best) {
				best, bestQ, bestSpec = c.f, q, spec
			}
		}
	}
	if bestQ < 0 {
		return HTML
	}
	return best
}

// NegotiateResponse is Negotiate for r's Accept header, and records on w
// that the answer depends on it: Vary: Accept (RFC 9110 § 12.5.5), so that
// a cache never gives a browser the JSON it kept for a script, nor the
// other way round.
func NegotiateResponse(w ResponseWriter, r *Request) Format {
	if h := w.Header(); !varies(h.Values("Vary"), "Accept") {
		h.Add("Vary", "Accept")
	}
	return Negotiate(r.Header.Get("Accept"))
}

// varies reports whether the Vary field values name field, or "*", which
// stands for every field.
func varies(vary []string, field string) bool {
	for _, v := range vary {
		for name := range strings.SplitSeq(v, ",") {
			if name = strings.TrimSpace(name); name == "*" || strings.EqualFold(name, field) {
				return true
			}
		}
	}
	return false
}

// specificity is how precisely a media range names mt: 2 exactly, 1 as
// "type/*", 0 as "*/*", -1 not at all.
func specificity(rng, mt string) int {
	switch {
	case rng == mt:
		return 2
	case rng == "*/*":
		return 0
	case strings.HasSuffix(rng, "/*") && strings.HasPrefix(mt, rng[:len(rng)-1]):
		return 1
	}
	return -1
}

// refusedHeader reports the headers, in canonical form, that the gateway
// never sends. Location in a CGI answer is an internal redirect inside
// Apache (RFC 3875 § 6.2.2, CVE-2024-38476); Status is the CGI writer's;
// Content-Length is Apache's to set (2.4.59+ drops a script's);
// Transfer-Encoding from a script is request smuggling (CVE-2024-24795).
// A switch, not a map literal, which would be built at every process's
// init.
func refusedHeader(canonical string) bool {
	switch canonical {
	case "Location", "Status", "Content-Length", "Transfer-Encoding":
		return true
	}
	return false
}

// SetHeader sets a response header, refusing a name that is not an RFC
// 9110 token, a refused name (Location, Status, Content-Length,
// Transfer-Encoding), and a value holding CR, LF, NUL or another control
// byte: no input can add a header line (CVE-2012-5526, CVE-2016-4975).
func SetHeader(h Header, name, value string) error {
	if err := CheckHeader(name, value); err != nil {
		return err
	}
	h.Set(name, value)
	return nil
}

// CheckHeader is SetHeader's test of one header field: nil when the
// gateway may send it.
func CheckHeader(name, value string) error {
	switch {
	case !httpguts.ValidHeaderFieldName(name):
		return fmt.Errorf("cgi: header name %q is not a token", name)
	case refusedHeader(textproto.CanonicalMIMEHeaderKey(name)):
		return fmt.Errorf("cgi: header %s is never sent by the gateway", name)
	case !httpguts.ValidHeaderFieldValue(value) || strings.ContainsAny(value, "\r\n\x00"):
		return fmt.Errorf("cgi: header %s value %q holds a control byte", name, value)
	}
	return nil
}

// Respond writes a whole response: its status, its Content-Type with
// charset=utf-8, X-Content-Type-Options: nosniff, and body made valid UTF-8
// (each run of invalid bytes becomes one U+FFFD, as bytes.ToValidUTF8
// does; html/template passes them through).
// It sets no Content-Length: Apache does.
func Respond(w ResponseWriter, status int, f Format, body []byte) {
	h := w.Header()
	h.Set("Content-Type", f.ContentType())
	h.Set("X-Content-Type-Options", "nosniff")
	h.Del("Content-Length")
	w.WriteHeader(status)
	if !utf8.Valid(body) {
		body = bytes.ToValidUTF8(body, []byte("\uFFFD")) // a copy, only when needed
	}
	w.Write(body)
}

// ErrorBody is the JSON rendering of an error.
type ErrorBody struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

// errorCSP lets an error page load and run nothing but its own inline
// style (CSP 3).
const errorCSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

var errorPage = lazy.Value[*template.Template]{New: func() *template.Template {
	return template.Must(template.New("error").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Status}} {{.Text}}</title></head>
<body><h1>{{.Status}} {{.Text}}</h1><p>{{.Error}}</p></body></html>
`))
}}

// WriteError answers err with its status (StatusOf) and message (Message)
// in the format r's Accept header asks for: JSON {"error": "...",
// "status": N}, an HTML page, or "N text\n\nmessage\n". A server fault's
// reason goes to stderr (Apache's error log) and not to the client.
//
// Every refusal writes one line to stderr as well, with the status and
// the technical reason, so that a site learns why a visitor was refused.
func WriteError(w ResponseWriter, r *Request, err error) {
	WriteErrorWith(w, r, err, nil)
}

// ErrorPage renders the HTML page of an error, in place of the built-in
// one: the status, and the message a client may read (Message).
type ErrorPage func(status int, message string) ([]byte, error)

// WriteErrorWith is WriteError with the HTML page rendered by page, when
// page is not nil. A page that fails is a 500 with the built-in page, its
// reason on stderr: never half a page.
func WriteErrorWith(w ResponseWriter, r *Request, err error, page ErrorPage) {
	st := StatusOf(err)
	msg := strings.ToValidUTF8(Message(err), "\uFFFD")
	log.Printf("cgigate: %d: %s", st, strings.ToValidUTF8(err.Error(), "\uFFFD"))
	f := HTML
	if r != nil {
		f = NegotiateResponse(w, r)
	}
	if st == StatusMethodNotAllowed && w.Header().Get("Allow") == "" {
		w.Header().Set("Allow", "GET, HEAD, POST")
	}
	if f == HTML {
		w.Header().Set("Content-Security-Policy", errorCSP)
	}
	var buf bytes.Buffer
	switch f {
	case JSON:
		json.NewEncoder(&buf).Encode(ErrorBody{Error: msg, Status: st})
	case Text:
		fmt.Fprintf(&buf, "%d %s\n\n%s\n", st, StatusText(st), msg)
	case HTML:
		if page != nil {
			b, perr := page(st, msg)
			if perr != nil {
				w.Header().Del("Allow")
				WriteError(w, r, fmt.Errorf("%w: error page: %w", ErrServer, perr))
				return
			}
			buf.Write(b)
			break
		}
		fallthrough
	default:
		errorPage.Get().Execute(&buf, struct {
			Status      int
			Text, Error string
		}{st, StatusText(st), msg})
	}
	Respond(w, st, f, buf.Bytes())
}
