package cgi

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"

	"github.com/cgigate/cgigate/decoder"
)

// ReadForm reads and decodes a request: the query string, then for a POST
// the body, with one charset chosen from all the evidence (decoder.Decode).
//
//   - GET and HEAD read the query only; an ISINDEX query gives keywords.
//   - POST keeps both: the query's fields first, then the body's, each
//     with its source ("query", "body"). An ISINDEX query on a POST gives
//     no keywords (RFC 3875 § 4.4 defines them for GET and HEAD only).
//   - Bodies: application/x-www-form-urlencoded (WHATWG URL § 5.1),
//     multipart/form-data (RFC 7578; see readMultipart), text/plain (HTML
//     § 4.10.21.8). Any other Content-Type is 415.
//   - Other methods are 405.
//
// A CONTENT_LENGTH above Limits.Body is 413 before a byte is read; a body
// of unknown length (a chunked request through Apache) is 413 once it
// passes Limits.Body. The body must arrive within Limits.ReadTimeout (408)
// and be as long as its CONTENT_LENGTH (400). On error the partial form is
// discarded, its files closed. On success, call Form.Close once the
// response is written.
func ReadForm(r *Request, cfg Config) (form *Form, err error) {
	switch r.Method {
	case "GET", "HEAD", "POST":
	default:
		return nil, errorf(StatusMethodNotAllowed, "method", r.Method, "only GET, HEAD and POST")
	}
	d := decoder.New(cfg.Decoder)
	raw, err := d.SplitQuery(r.RawQuery, "query")
	if err != nil {
		return nil, err
	}
	form = &Form{Method: r.Method}
	defer func() {
		if err != nil {
			form.Close()
			form = nil
		}
	}()
	if raw.Kind == decoder.ISINDEX && r.Method == "POST" {
		raw.Keywords, raw.Kind = nil, decoder.Empty
		raw.Warnings = append(raw.Warnings, "ISINDEX query on a POST ignored: keywords are for GET and HEAD only (RFC 3875 § 4.4)")
	} else if len(r.args) > 0 {
		compareArgs(raw, r.args)
	}
	var ev decoder.Evidence
	ev.AcceptLanguage = r.Header.Get("Accept-Language")
	ev.Host = r.Host
	var files []rawFile
	if r.Method == "POST" {
		files, err = readBody(r, d, raw, &ev, cfg, form)
		if err != nil {
			return form, err
		}
	}
	res, err := d.Decode(raw, ev)
	if err != nil {
		return form, err
	}
	form.Result = res
	if len(files) > 0 && res.Kind == decoder.Empty {
		res.Kind = decoder.Form // a form of files only
	}
	form.Files, err = decodeFiles(files, res)
	return form, err
}

// readBody adds the body's pairs to raw and returns its file parts.
func readBody(r *Request, d *decoder.Decoder, raw *decoder.Raw, ev *decoder.Evidence, cfg Config, form *Form) ([]rawFile, error) {
	ct := r.Header.Get("Content-Type")
	max := cfg.Limits.body()
	if r.ContentLength > max {
		sent := r.length
		if sent == "" {
			sent = fmt.Sprint(r.ContentLength)
		}
		return nil, errorf(StatusRequestEntityTooLarge, "CONTENT_LENGTH", sent, "more than %d bytes", max)
	}
	if r.ContentLength == 0 || r.Body == nil {
		if mt, _, _ := mime.ParseMediaType(ct); mt == "multipart/form-data" {
			// Even a form with no entries has its closing boundary; an
			// empty body is one cut before it, as an empty chunked one
			// is found to be.
			return nil, errorf(StatusBadRequest, "multipart", "", "empty body: not even the closing boundary (RFC 2046 § 5.1.1)")
		}
		return nil, nil
	}
	if ct == "" && r.ContentLength < 0 {
		return nil, nil // no length and no type: nothing was sent
	}
	if ct == "" {
		return nil, errorf(StatusUnsupportedMediaType, "Content-Type", "", "a body needs a Content-Type")
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil, &Error{Status: StatusBadRequest, Op: "Content-Type", Input: ct, Err: err}
	}
	ev.ContentTypeCharset = params["charset"]
	// Serve has put the body under its deadline already, for the whole
	// request; another host's body gets one here.
	var in io.Reader = r.Body
	if !underDeadline(r.Body) {
		dr := newDeadlineReader(r.Body, cfg.Limits.readTimeout(), r.ContentLength)
		defer dr.Close()
		in = dr
	}
	body := &countingReader{r: in, want: max64(r.ContentLength, 0), max: max}
	switch mt {
	case "application/x-www-form-urlencoded", "text/plain":
		b, err := readString(body, r.ContentLength)
		if err != nil {
			return nil, bodyError(err)
		}
		form.RawBody = b
		if mt == "text/plain" {
			return nil, d.SplitTextPlain(raw, b, "body")
		}
		return nil, d.SplitURLEncoded(raw, b, "body")
	case "multipart/form-data":
		return readMultipart(body, params, ct, d, raw, cfg, form)
	}
	return nil, errorf(StatusUnsupportedMediaType, "Content-Type", mt,
		"not a form encoding (application/x-www-form-urlencoded, multipart/form-data, text/plain)")
}

// readString reads a whole body into a string of its own. A body of known
// length (at most Limits.Body: readBody refuses a larger CONTENT_LENGTH
// first) is read into one buffer of that size, which becomes the string
// without a copy (strings.Builder); io.ReadAll and a conversion would hold
// the body twice, and a doubling buffer's copies besides: 10 MB of
// urlencoded body cost 52 MB of peak RSS that way.
func readString(body io.Reader, length int64) (string, error) {
	var b strings.Builder
	if length > 0 {
		b.Grow(int(length))
	}
	// io.Copy would bring a 32 KiB buffer of its own: for a form post of
	// a few dozen bytes, fresh pages faulted in for nothing.
	_, err := io.CopyBuffer(&b, body, make([]byte, readBufSize(length)))
	return b.String(), err
}

// bodyError keeps a typed error and makes any other read error a 400: the
// body could not be read as the client claimed it.
func bodyError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Status: StatusBadRequest, Op: "body", Msg: "unreadable", Err: err}
}

// compareArgs compares the argv Apache built for an ISINDEX query (the
// words percent-decoded, then backslash-escaped by ap_escape_shell_cmd,
// empty words kept, cut after some 4,000) with the words of QUERY_STRING,
// which decide. A difference is a warning, never an input.
// Apache knows nothing of charset hints, so its first word still starts
// with the "[label]:" that the decoder took off.
func compareArgs(raw *decoder.Raw, args []string) {
	var words []string
	for i, a := range args {
		a = unescapeShell(a)
		if i == 0 && raw.Hint != nil {
			a = strings.TrimPrefix(a, "["+raw.Hint.Label+"]:")
		}
		if a != "" {
			words = append(words, a)
		}
	}
	if len(words) == 0 {
		return
	}
	if raw.Kind != decoder.ISINDEX {
		raw.Warnings = append(raw.Warnings, fmt.Sprintf("%d command-line arguments ignored: the query is not an ISINDEX search", len(args)))
		return
	}
	same := len(words) == len(raw.Keywords)
	for i := 0; same && i < len(words); i++ {
		same = words[i] == raw.Keywords[i]
	}
	if !same {
		raw.Warnings = append(raw.Warnings, "command-line arguments differ from QUERY_STRING's words; QUERY_STRING used")
	}
}

// unescapeShell undoes ap_escape_shell_cmd: a backslash quotes the byte
// after it.
func unescapeShell(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
