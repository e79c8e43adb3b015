package cgi_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/cgi"
)

// FuzzMultipartTruncated: a multipart body cut anywhere before its closing
// boundary never succeeds, and no body makes the gateway fail as a server
// (5xx) or panic.
func FuzzMultipartTruncated(f *testing.F) {
	f.Add("a", "value", "", "x.txt", "file\r\n--content", uint16(10))
	f.Add("名前", "\x00\xff", "b", "", "", uint16(0))
	f.Fuzz(func(t *testing.T, name, value, fileField, filename, content string, cut uint16) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		if err := mw.WriteField(name, value); err != nil {
			t.Skip()
		}
		if fileField != "" {
			fw, err := mw.CreateFormFile(fileField, filename)
			if err != nil {
				t.Skip()
			}
			fw.Write([]byte(content))
		}
		mw.Close()
		body := b.String()
		// The writer ends with "\r\n--B--\r\n"; Go accepts the closing
		// delimiter without its last CRLF, so cuts stop before it.
		closing := len("\r\n--" + mw.Boundary() + "--\r\n")
		// Cuts start at 1: CONTENT_LENGTH 0 is refused before the
		// multipart reader (TestMultipartLosesNoPartSilently).
		c := 1 + int(cut)%(len(body)-closing)
		truncated := body[:c]
		env := post(mw.FormDataContentType(), truncated)
		form, err := readForm(t, env, truncated, cgi.Config{})
		if err == nil {
			t.Fatalf("a body cut at %d of %d succeeded: %+v", c, len(body), form)
		}
		if st := cgi.StatusOf(err); st >= 500 {
			t.Fatalf("status %d for client input: %v", st, err)
		}
		// And the whole body, also on a short CONTENT_LENGTH claim.
		if _, err := readForm(t, post(mw.FormDataContentType(), body), body, cgi.Config{}); err != nil && cgi.StatusOf(err) >= 500 {
			t.Fatalf("status %d for client input: %v", cgi.StatusOf(err), err)
		}
	})
}

// FuzzServeEnv: whatever the query, content type and body, the answer is
// one Status line, headers without a stray line, and never a 5xx.
func FuzzServeEnv(f *testing.F) {
	f.Add("a=1&b=%E5", "application/x-www-form-urlencoded", "c=%zz", "text/html")
	f.Add("foo+bar", "multipart/form-data; boundary=X", "--X\r\n", "application/json")
	f.Add("[x-klingon]:a=1", "text/plain", "a=b\r\n", "text/plain")
	f.Fuzz(func(t *testing.T, query, ct, body, accept string) {
		h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
			form, err := cgi.ReadForm(r, cgi.Config{TempDir: t.TempDir()})
			if err != nil {
				if st := cgi.StatusOf(err); st >= 500 {
					t.Errorf("status %d for client input: %v", st, err)
				}
				cgi.WriteError(w, r, err)
				return
			}
			defer form.Close()
			var out strings.Builder
			for _, fd := range form.Fields {
				fmt.Fprintf(&out, "%s=%s\n", fd.Name, fd.Value)
			}
			cgi.Respond(w, 200, cgi.Text, []byte(out.String()))
		})
		env := post(ct, body, "QUERY_STRING", query, "HTTP_ACCEPT", accept)
		var out bytes.Buffer
		if err := cgi.ServeEnv(h, cgi.Limits{}, env, nil, strings.NewReader(body), &out); err != nil {
			t.Fatal(err)
		}
		head, rest, ok := bytes.Cut(out.Bytes(), []byte("\r\n\r\n"))
		if !ok {
			t.Fatalf("no end of headers: %q", out.String())
		}
		lines := strings.Split(string(head), "\r\n")
		if !strings.HasPrefix(lines[0], "Status: ") {
			t.Fatalf("first line %q", lines[0])
		}
		for _, l := range lines {
			if strings.ContainsAny(l, "\r\n\x00") || !strings.Contains(l, ": ") {
				t.Fatalf("header line %q", l)
			}
		}
		if !utf8.Valid(rest) {
			t.Fatalf("body not UTF-8: %q", rest)
		}
	})
}

// FuzzSetHeader: a value is refused or it is one header line.
func FuzzSetHeader(f *testing.F) {
	f.Add("X-A", "v\r\nSet-Cookie: a=b")
	f.Add("Content-Type", "text/html; charset=utf-8")
	f.Fuzz(func(t *testing.T, name, value string) {
		h := cgi.Header{}
		if err := cgi.SetHeader(h, name, value); err != nil {
			return
		}
		var b bytes.Buffer
		http.Header(h).Write(&b) // net/http's writer, independent of the gateway's
		got, err := textproto.NewReader(bufioReader(b.String() + "\r\n")).ReadMIMEHeader()
		if err != nil || len(got) != 1 || strings.Count(b.String(), "\r\n") != 1 {
			t.Fatalf("%q: %q made %q (%v)", name, value, b.String(), err)
		}
	})
}
