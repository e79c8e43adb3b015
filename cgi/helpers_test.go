package cgi_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
)

// cgiEnv is a CGI environment for a GET, with kv ("KEY", "value", ...)
// added or replacing.
func cgiEnv(kv ...string) map[string]string {
	m := map[string]string{
		"GATEWAY_INTERFACE": "CGI/1.1",
		"SERVER_PROTOCOL":   "HTTP/1.1",
		"REQUEST_METHOD":    "GET",
		"SCRIPT_NAME":       "/cgi-bin/cgigate",
		"REMOTE_ADDR":       "192.0.2.7",
		"REMOTE_PORT":       "40000",
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// post is a POST environment for body with content type ct; its
// CONTENT_LENGTH is len(body).
func post(ct, body string, kv ...string) map[string]string {
	base := []string{"REQUEST_METHOD", "POST", "CONTENT_TYPE", ct, "CONTENT_LENGTH", itoa(len(body))}
	return cgiEnv(append(base, kv...)...)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// readForm builds the request from env with body on stdin and reads it.
func readForm(t *testing.T, env map[string]string, body string, cfg cgi.Config) (*cgi.Form, error) {
	t.Helper()
	return readFormFrom(t, env, strings.NewReader(body), cfg)
}

func readFormFrom(t *testing.T, env map[string]string, stdin io.Reader, cfg cgi.Config) (*cgi.Form, error) {
	t.Helper()
	if cfg.TempDir == "" {
		cfg.TempDir = t.TempDir()
	}
	r, err := cgi.RequestFromMap(env, nil, stdin)
	if err != nil {
		return nil, err
	}
	f, err := cgi.ReadForm(r, cfg)
	if f != nil {
		t.Cleanup(func() { f.Close() })
	}
	return f, err
}

// wantStatus checks that err maps to status.
func wantStatus(t *testing.T, err error, status int) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want status %d", status)
	}
	if got := cgi.StatusOf(err); got != status {
		t.Fatalf("status %d (%v); want %d", got, err, status)
	}
}

// mp builds a multipart/form-data body from parts, each its header lines
// and content.
type part struct{ header, content string }

func mp(boundary string, parts ...part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString("--" + boundary + "\r\n" + p.header + "\r\n\r\n" + p.content + "\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return b.String()
}

// encoded is a text and its bytes in a charset, from Python's codecs
// (testdata/gen.py).
type encoded struct {
	Charset, Text, Hex string
}

func (e encoded) bytes(t *testing.T) string {
	b, err := hex.DecodeString(e.Hex)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func loadEncoded(t *testing.T, charset, text string) encoded {
	t.Helper()
	b, err := os.ReadFile("testdata/encoded.json")
	if err != nil {
		t.Fatal(err)
	}
	var all []encoded
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.Charset == charset && e.Text == text {
			return e
		}
	}
	t.Fatalf("testdata/encoded.json has no %q in %s", text, charset)
	return encoded{}
}

func fieldsOf(f *cgi.Form) [][3]string {
	var out [][3]string
	for _, fd := range f.Fields {
		out = append(out, [3]string{fd.Name, fd.Value, fd.Origin})
	}
	return out
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

// recorder is a cgi.ResponseWriter that keeps the answer, as
// httptest.ResponseRecorder does for net/http.
type recorder struct {
	Code   int
	header cgi.Header
	Body   *bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: cgi.Header{}, Body: new(bytes.Buffer)} }

func (r *recorder) Header() cgi.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.Code == 0 {
		r.Code = status
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(200)
	return r.Body.Write(p)
}
