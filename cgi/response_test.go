package cgi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"net/textproto"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/cgi"
)

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct {
		accept string
		want   cgi.Format
	}{
		{"", cgi.HTML},
		{"*/*", cgi.HTML},
		{"application/json", cgi.JSON},
		{"text/plain", cgi.Text},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", cgi.HTML},
		{"application/json;q=0.5, text/plain;q=0.9", cgi.Text},
		{"text/*", cgi.HTML},
		{"text/*;q=0.5, text/plain", cgi.Text},
		{"application/*", cgi.JSON},
		{"image/png", cgi.HTML},
		{"text/html;q=0, application/json;q=0.1", cgi.JSON},
		{"application/json, text/html", cgi.HTML},
		{"garbage;;;", cgi.HTML},
	} {
		t.Run("Accept "+tc.accept+" picks "+tc.want.ContentType(), func(t *testing.T) {
			if got := cgi.Negotiate(tc.accept); got != tc.want {
				t.Errorf("got %s", got.ContentType())
			}
		})
	}
}

func TestSetHeaderRefuses(t *testing.T) {
	for _, tc := range []struct{ name, key, value string }{
		{"a CR LF in a value (corpus case 63, CVE-2012-5526)", "X-Next", "a\r\nSet-Cookie: a=b"},
		{"a bare LF in a value", "X-Next", "a\nb"},
		{"a NUL in a value", "X-Next", "a\x00b"},
		{"a Location (corpus case 64, CVE-2024-38476)", "Location", "/cgi-bin/admin.cgi"},
		{"a Transfer-Encoding (corpus case 65, CVE-2024-24795)", "Transfer-Encoding", "chunked"},
		{"a Content-Length (Apache sets it)", "Content-Length", "5"},
		{"a Status (the writer sets it)", "status", "200"},
		{"a name that is not a token", "X Bad:", "v"},
	} {
		t.Run("SetHeader refuses "+tc.name, func(t *testing.T) {
			h := cgi.Header{}
			if err := cgi.SetHeader(h, tc.key, tc.value); err == nil {
				t.Error("accepted")
			}
			if len(h) != 0 {
				t.Errorf("header set: %v", h)
			}
		})
	}
	t.Run("SetHeader sets a clean header", func(t *testing.T) {
		h := cgi.Header{}
		if err := cgi.SetHeader(h, "X-Ok", "v; w=1"); err != nil || h.Get("X-Ok") != "v; w=1" {
			t.Errorf("%v %v", err, h)
		}
	})
}

// cgiOutput runs h as a CGI child through ServeEnv and parses its output.
func cgiOutput(t *testing.T, h cgi.Handler, env map[string]string) (status string, hdr textproto.MIMEHeader, body string) {
	t.Helper()
	var out bytes.Buffer
	if err := cgi.ServeEnv(h, cgi.Limits{}, env, nil, strings.NewReader(""), &out); err != nil {
		t.Fatal(err)
	}
	tp := textproto.NewReader(bufio.NewReader(&out))
	hdr, err := tp.ReadMIMEHeader()
	if err != nil {
		t.Fatalf("output %q: %v", out.String(), err)
	}
	rest, _ := tp.R.ReadString(0)
	return hdr.Get("Status"), hdr, rest
}

func TestCGIWriter(t *testing.T) {
	t.Run("headers set behind SetHeader's back are left out, not split", func(t *testing.T) {
		h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
			w.Header()["X-Next"] = []string{"a\r\nSet-Cookie: a=b"}
			w.Header()["Location"] = []string{"/cgi-bin/admin.cgi"}
			w.Header()["Transfer-Encoding"] = []string{"chunked"}
			w.Header()["Content-Length"] = []string{"1"}
			cgi.Respond(w, 200, cgi.Text, []byte("ok"))
		})
		st, hdr, body := cgiOutput(t, h, cgiEnv())
		for _, k := range []string{"Set-Cookie", "X-Next", "Location", "Transfer-Encoding", "Content-Length"} {
			if v, ok := hdr[k]; ok {
				t.Errorf("%s: %q sent", k, v)
			}
		}
		if st != "200 OK" || body != "ok" || hdr.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("status %q type %q body %q", st, hdr.Get("Content-Type"), body)
		}
	})
	t.Run("a response without a Content-Type gets text/plain; charset=utf-8, not a sniffed one", func(t *testing.T) {
		h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) { w.Write([]byte("<html>")) })
		_, hdr, _ := cgiOutput(t, h, cgiEnv())
		if ct := hdr.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
	})
	t.Run("a panic is a 500 whose reason stays out of the answer", func(t *testing.T) {
		h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) { panic("secret internals") })
		st, _, body := cgiOutput(t, h, cgiEnv("HTTP_ACCEPT", "application/json"))
		if st != "500 Internal Server Error" || strings.Contains(body, "secret") {
			t.Errorf("status %q body %q", st, body)
		}
	})
	t.Run("a refused environment is answered in the Accept format without calling the handler", func(t *testing.T) {
		h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) { t.Error("handler called") })
		st, _, body := cgiOutput(t, h, cgiEnv("REQUEST_METHOD", "POST", "CONTENT_LENGTH", "-1", "HTTP_ACCEPT", "application/json"))
		var e cgi.ErrorBody
		if err := json.Unmarshal([]byte(body), &e); err != nil || e.Status != 400 || !strings.Contains(e.Error, `"-1"`) || st != "400 Bad Request" {
			t.Errorf("status %q body %q (%v)", st, body, err)
		}
	})
}

func TestRespondIsValidUTF8(t *testing.T) {
	// Corpus case 68: bytes FF FE 3C 78 3E.
	w := newRecorder()
	cgi.Respond(w, 200, cgi.HTML, []byte("\xff\xfe<x>"))
	if !utf8.Valid(w.Body.Bytes()) || w.Body.String() != "\uFFFD<x>" {
		t.Errorf("body %q", w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if w.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no nosniff")
	}
}

func TestWriteError(t *testing.T) {
	clientErr := &cgi.Error{Status: 415, Op: "Content-Type", Input: `<svg onload=alert(1)>`, Msg: "not a form encoding"}
	serverErr := errors.Join(cgi.ErrServer, errors.New("disk secret"))
	for _, tc := range []struct {
		name, accept string
		err          error
		status       int
		want, not    string
	}{
		{"a client error in JSON names its input", "application/json", clientErr, 415, `"status":415`, ""},
		{"a client error in HTML escapes its input", "text/html", clientErr, 415, "&lt;svg onload=alert(1)&gt;", "<svg"},
		{"a client error in text says status and message", "text/plain", clientErr, 415, "415 Unsupported Media Type\n\ncgi: Content-Type", ""},
		{"a server fault hides its reason", "application/json", serverErr, 500, `"error":"Internal Server Error"`, "secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &cgi.Request{Method: "GET", Header: cgi.Header{}}
			r.Header.Set("Accept", tc.accept)
			w := newRecorder()
			cgi.WriteError(w, r, tc.err)
			body := w.Body.String()
			if w.Code != tc.status || !strings.Contains(body, tc.want) || tc.not != "" && strings.Contains(body, tc.not) {
				t.Errorf("status %d body %q", w.Code, body)
			}
			if !strings.HasSuffix(w.Header().Get("Content-Type"), "; charset=utf-8") {
				t.Errorf("Content-Type %q", w.Header().Get("Content-Type"))
			}
		})
	}
}

// Under mod_cgid stdin and stdout are one socket: closing it with unread
// input resets it and Apache loses the answer. ServeEnv reads what is left
// of a body once the answer is written.
func TestServeEnvDrainsTheBody(t *testing.T) {
	refuse := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cgi.WriteError(w, r, &cgi.Error{Status: 415, Op: "Content-Type"})
	})
	for _, tc := range []struct {
		name      string
		env       map[string]string
		body      string
		remaining int
	}{
		{"a body answered 415 unread is drained after the answer", post("application/xml", strings.Repeat("x", 100000)), strings.Repeat("x", 100000), 0},
		{"a drain stops at CONTENT_LENGTH", post("application/xml", "abc"), "abcdef", 3},
		{"a body of unknown length is drained to its end", cgiEnv("REQUEST_METHOD", "POST", "CONTENT_TYPE", "application/xml"), "abcdef", 0},
		{"a GET's stdin is never read", cgiEnv(), "abcdef", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.NewReader(tc.body)
			var out bytes.Buffer
			if err := cgi.ServeEnv(refuse, cgi.Limits{}, tc.env, nil, in, &out); err != nil {
				t.Fatal(err)
			}
			if in.Len() != tc.remaining || !strings.HasPrefix(out.String(), "Status: 415") {
				t.Errorf("%d bytes left unread; want %d (output %.40q)", in.Len(), tc.remaining, out.String())
			}
		})
	}
}

// RFC 3875 § 4.3.2: the script MUST NOT give a HEAD request's answer a
// body, and its header is the one GET would get.
func TestServeEnvAnswersHEADWithGETsHeaderAndNoBody(t *testing.T) {
	page := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		form, err := cgi.ReadForm(r, cgi.Config{})
		if err != nil {
			cgi.WriteError(w, r, err)
			return
		}
		cgi.Respond(w, cgi.StatusOK, cgi.HTML, []byte("<p>"+strings.Join(form.Keywords, " ")+"</p>"))
	})
	for _, tc := range []struct {
		name string
		env  []string
		code string
	}{
		{"a page", []string{"QUERY_STRING", "hello+world"}, "Status: 200 OK\r\n"},
		{"an error page", []string{"QUERY_STRING", "_charset_=no-such-charset&q=1", "HTTP_ACCEPT", "application/json"}, "Status: 400 Bad Request\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer := func(method string) string {
				var out bytes.Buffer
				env := cgiEnv(append(tc.env, "REQUEST_METHOD", method)...)
				if err := cgi.ServeEnv(page, cgi.Limits{}, env, nil, strings.NewReader(""), &out); err != nil {
					t.Fatal(err)
				}
				return out.String()
			}
			get, head := answer("GET"), answer("HEAD")
			header, body, ok := strings.Cut(get, "\r\n\r\n")
			if !ok || body == "" || !strings.HasPrefix(get, tc.code) {
				t.Fatalf("GET answered %q; want %q, a header and a body", get, tc.code)
			}
			if head != header+"\r\n\r\n" {
				t.Errorf("HEAD answered\n%q\nwant GET's header and nothing after it\n%q", head, header+"\r\n\r\n")
			}
		})
	}
}

func TestNegotiateResponseNamesAcceptInVaryOnce(t *testing.T) {
	tests := []struct {
		name string
		vary []string // on the header before
		want []string
	}{
		{"an answer without Vary gets Vary: Accept", nil, []string{"Accept"}},
		{"another field named before is kept", []string{"Accept-Encoding"}, []string{"Accept-Encoding", "Accept"}},
		{"Accept in a list, in any case, is not named twice", []string{"Accept-Encoding, accept"}, []string{"Accept-Encoding, accept"}},
		{"Vary: * already covers Accept", []string{"*"}, []string{"*"}},
		{"a name that only starts with Accept is another field", []string{"Accept-Language"}, []string{"Accept-Language", "Accept"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newRecorder()
			if tt.vary != nil {
				w.header["Vary"] = tt.vary
			}
			r := &cgi.Request{Method: "GET", Header: cgi.Header{"Accept": {"application/json"}}}
			if f := cgi.NegotiateResponse(w, r); f != cgi.JSON {
				t.Errorf("format %v, want JSON", f)
			}
			if got := w.header.Values("Vary"); !slices.Equal(got, tt.want) {
				t.Errorf("Vary %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("an error answered before any request was read has no Vary", func(t *testing.T) {
		w := newRecorder()
		cgi.WriteError(w, nil, &cgi.Error{Status: 400, Op: "environment"})
		if v := w.header.Values("Vary"); v != nil {
			t.Errorf("Vary %q without a request", v)
		}
	})
}
