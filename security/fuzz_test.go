package security

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/cgi/cgihttp"
	"github.com/cgigate/cgigate/decoder"
)

// Fuzz targets with invariants, not golden outputs, through package cgi's
// exported API only (ServeEnv, ReadForm, Guard, StatusOf). A finding's
// input is committed under testdata/fuzz/<Target>/.

// fuzzLimits are small, so that the fuzzer reaches every bound.
var fuzzLimits = cgi.Limits{Body: 64 << 10, FileBytes: 4096, Parts: 20, PartHeaders: 4}

// serveForm answers one CGI request through cgi.ServeEnv with a handler
// that reads the form, and returns the error ReadForm gave, the bytes
// written and what the whole exchange allocated.
func serveForm(t *testing.T, env map[string]string, body []byte) (formErr error, out []byte, alloc uint64) {
	t.Helper()
	tmp := t.TempDir()
	h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cfg := cgi.Config{Limits: fuzzLimits, TempDir: tmp, Decoder: decoder.Options{Limits: decoder.Limits{ValueBytes: 1024}}}
		form, err := cgi.ReadForm(r, cfg)
		formErr = err
		if err != nil {
			cgi.WriteError(w, r, err)
			return
		}
		defer form.Close()
		cgi.Respond(w, http.StatusOK, cgi.Text, []byte(fmt.Sprintf("%d fields %d files\n", len(form.Fields), len(form.Files))))
	})
	var buf bytes.Buffer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := cgi.ServeEnv(h, fuzzLimits, env, nil, bytes.NewReader(body), &buf)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("ServeEnv: %v", err)
	}
	return formErr, buf.Bytes(), after.TotalAlloc - before.TotalAlloc
}

// allocBound is what one request may allocate: a fixed part (buffers of
// the deadline reader, bufio, mime/multipart, the decoder) and a part
// proportional to the body. Without the part and size limits a body of
// 1,000 parts costs megabytes (CVE-2023-24536); here any body stays
// within it.
func allocBound(body []byte) uint64 { return 4<<20 + 32*uint64(len(body)) }

// FuzzMultipartBoundedAndTruncated: a multipart body built from the
// fuzzer's parts is answered 2xx or 4xx, never 5xx; cut anywhere before
// its closing delimiter it is always 4xx; and neither allocates more than
// allocBound.
func FuzzMultipartBoundedAndTruncated(f *testing.F) {
	f.Add("a", "value", "f", "x.txt", []byte("file\r\n--content"), uint8(1), uint16(10))
	f.Add("名前", "\x00\xff", "", "", []byte{}, uint8(30), uint16(500))
	f.Add("a", strings.Repeat("v", 2000), "f", "../../etc/passwd", bytes.Repeat([]byte("x"), 5000), uint8(3), uint16(0))
	f.Fuzz(func(t *testing.T, name, value, fileField, filename string, content []byte, parts uint8, cut uint16) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for range int(parts%40) + 1 {
			if err := mw.WriteField(name, value); err != nil {
				t.Skip()
			}
		}
		if fileField != "" {
			fw, err := mw.CreateFormFile(fileField, filename)
			if err != nil {
				t.Skip()
			}
			fw.Write(content)
		}
		mw.Close()
		body := b.Bytes()
		ct := mw.FormDataContentType()
		env := postEnv(ct, len(body))
		err, out, alloc := serveForm(t, env, body)
		checkAnswer(t, out)
		if st := cgi.StatusOf(err); st >= 500 {
			t.Fatalf("whole body: status %d: %v", st, err)
		}
		if alloc > allocBound(body) {
			t.Errorf("whole body of %d bytes allocated %d", len(body), alloc)
		}
		// Go's writer ends with "\r\n--B--\r\n" and Go accepts the closing
		// delimiter without its last CRLF: cuts stop before "\r\n--B--".
		closing := len("\r\n--" + mw.Boundary() + "--\r\n")
		c := 1 + int(cut)%(len(body)-closing)
		short := body[:c]
		err, out, alloc = serveForm(t, postEnv(ct, len(short)), short)
		checkAnswer(t, out)
		if err == nil {
			t.Fatalf("a body cut at %d of %d succeeded", c, len(body))
		}
		if st := cgi.StatusOf(err); st < 400 || st >= 500 {
			t.Fatalf("a body cut at %d: status %d: %v", c, st, err)
		}
		if alloc > allocBound(short) {
			t.Errorf("a cut body of %d bytes allocated %d", len(short), alloc)
		}
		// The whole body behind a CONTENT_LENGTH that claims more is
		// short too (TestMultipartShorterThanContentLengthIs400).
		err, out, _ = serveForm(t, postEnv(ct, len(body)+1+int(cut)), body)
		checkAnswer(t, out)
		// 400, unless a limit (413) refused the body before its end.
		if st := cgi.StatusOf(err); err == nil || st != http.StatusBadRequest && st != http.StatusRequestEntityTooLarge {
			t.Fatalf("a body shorter than CONTENT_LENGTH: status %d, want 400 or 413: %v", st, err)
		}
	})
}

// checkAnswer: a CGI answer is a Status line, header lines each one
// line, a blank line, a UTF-8 body.
func checkAnswer(t *testing.T, out []byte) {
	t.Helper()
	r, err := parseCGI(out)
	if err != nil {
		t.Fatal(err)
	}
	r.Via = "exec"
	checkOutputOpts(t, r, runOpts{})
}

// FuzzResponseHeaderIsOneLine: whatever name and value a handler puts in
// its header map by hand (bypassing cgi.SetHeader), the CGI answer
// cgi.ServeEnv writes has only well-formed header lines, at most one per
// value set, and none of Location, Status, Transfer-Encoding or
// Content-Length from it; the same rules hold under cgihttp.Handler, the
// FastCGI path.
func FuzzResponseHeaderIsOneLine(f *testing.F) {
	f.Add("X-Next", "a\r\nSet-Cookie: a=b")
	f.Add("Location", "/cgi-bin/admin.cgi")
	f.Add("Content-Type", "text/html\r\n\r\n<script>")
	f.Add("X-A", "v\x00w")
	f.Add("Set-Cookie\r\nX", "v")
	f.Add("X-Ok", "plain value")
	log.SetOutput(io.Discard) // the writer names each refused header on stderr
	defer log.SetOutput(os.Stderr)
	f.Fuzz(func(t *testing.T, name, value string) {
		set := func(w cgi.ResponseWriter) {
			w.Header()[name] = []string{value}
			w.Header().Add(name, value)
		}
		h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
			set(w)
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("body\n"))
		})
		var out bytes.Buffer
		if err := cgi.ServeEnv(h, cgi.Limits{}, cgiEnv(), nil, strings.NewReader(""), &out); err != nil {
			t.Fatal(err)
		}
		head, _, ok := bytes.Cut(out.Bytes(), []byte("\r\n\r\n"))
		if !ok {
			t.Fatalf("no end of headers: %q", out.Bytes())
		}
		lines := strings.Split(string(head), "\r\n")
		if !strings.HasPrefix(lines[0], "Status: ") {
			t.Fatalf("first line %q", lines[0])
		}
		// Status, Content-Type (the handler's own, if it set one and it
		// passed, else the default) and at most two lines from the fuzzer.
		if len(lines) > 4 {
			t.Errorf("%d header lines from one name: %q", len(lines), lines)
		}
		for _, l := range lines[1:] {
			if !headerLine.MatchString(l) {
				t.Errorf("header line %q", l)
			}
			k, _, _ := strings.Cut(l, ":")
			switch http.CanonicalHeaderKey(k) {
			case "Location", "Status", "Transfer-Encoding", "Content-Length":
				t.Errorf("%q was written", l)
			}
		}
		if _, err := textproto.NewReader(bufioReader(string(head) + "\r\n\r\n")).ReadMIMEHeader(); err != nil {
			t.Errorf("the header block does not parse: %v: %q", err, head)
		}
		// The FastCGI path: cgihttp over net/http's writer.
		rec := httptest.NewRecorder()
		cgihttp.Handler(h).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		for k, vs := range rec.Result().Header {
			for _, v := range vs {
				if strings.ContainsAny(k+v, "\r\n\x00") {
					t.Errorf("cgihttp let %q: %q through", k, v)
				}
			}
			switch k {
			case "Location", "Status", "Transfer-Encoding":
				t.Errorf("cgihttp let %s through", k)
			}
		}
	})
}
