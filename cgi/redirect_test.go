package cgi_test

import (
	"bytes"
	"errors"
	"log"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/cgi/cgihttp"
)

// serveRedirect answers one CGI GET with h and returns the raw answer.
func serveRedirect(t *testing.T, h cgi.HandlerFunc) string {
	t.Helper()
	var out bytes.Buffer
	env := map[string]string{"GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": "GET", "SCRIPT_NAME": "/cgi-bin/x"}
	if err := cgi.ServeEnv(h, cgi.Limits{}, env, nil, strings.NewReader(""), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestSeeOtherIsTheOneLocation(t *testing.T) {
	t.Run("a declared redirect is sent with 303", func(t *testing.T) {
		out := serveRedirect(t, func(w cgi.ResponseWriter, r *cgi.Request) {
			if err := cgi.SeeOther(w, "/thanks.html", cgi.HTML, []byte("<a href=/thanks.html>on</a>")); err != nil {
				t.Error(err)
			}
		})
		if !strings.HasPrefix(out, "Status: 303 See Other\r\nLocation: /thanks.html\r\n") || strings.Count(out, "Location:") != 1 {
			t.Errorf("%q", out)
		}
	})
	t.Run("a Location a handler puts in the header is still refused beside it", func(t *testing.T) {
		out := serveRedirect(t, func(w cgi.ResponseWriter, r *cgi.Request) {
			w.Header()["Location"] = []string{"/cgi-bin/admin"}
			cgi.SeeOther(w, "https://www.example.org/thanks", cgi.JSON, []byte("{}"))
		})
		if strings.Contains(out, "admin") || !strings.Contains(out, "Location: https://www.example.org/thanks\r\n") {
			t.Errorf("%q", out)
		}
	})
	t.Run("the redirect is dropped from an answer that is not a redirect", func(t *testing.T) {
		out := serveRedirect(t, func(w cgi.ResponseWriter, r *cgi.Request) {
			w.(cgi.Redirector).SetRedirect("/thanks.html")
			cgi.Respond(w, cgi.StatusOK, cgi.HTML, []byte("x"))
		})
		// With 200, Apache would take a local Location as an internal
		// redirect (RFC 3875 § 6.2.2, CVE-2024-38476).
		if strings.Contains(out, "Location") {
			t.Errorf("%q", out)
		}
	})
	for _, bad := range []string{"//evil.example/", "javascript:alert(1)", "thanks.html", "/a\r\nSet-Cookie: x=1", "/a b", `/\evil.example`, ""} {
		t.Run("the location "+strings.ReplaceAll(bad, "\r\n", `\r\n`)+" is refused and nothing is written", func(t *testing.T) {
			out := serveRedirect(t, func(w cgi.ResponseWriter, r *cgi.Request) {
				if err := cgi.SeeOther(w, bad, cgi.HTML, nil); err == nil {
					t.Error("accepted")
				}
			})
			if strings.Contains(out, "Location") || strings.Contains(out, "303") {
				t.Errorf("%q", out)
			}
		})
	}
	t.Run("under net/http (FastCGI) the declared redirect is sent too", func(t *testing.T) {
		h := cgihttp.Handler(cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
			w.Header()["Location"] = []string{"/cgi-bin/admin"}
			cgi.SeeOther(w, "/thanks.html", cgi.HTML, nil)
		}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/", nil))
		if rec.Code != 303 || rec.Header().Values("Location")[0] != "/thanks.html" || len(rec.Header().Values("Location")) != 1 {
			t.Errorf("%d %q", rec.Code, rec.Header().Values("Location"))
		}
	})
}

func TestRequestSchemeAndPathInfo(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"HTTPS=on is https", map[string]string{"HTTPS": "on", "REQUEST_SCHEME": "http"}, "https"},
		{"REQUEST_SCHEME https is https", map[string]string{"REQUEST_SCHEME": "https"}, "https"},
		{"neither is http", map[string]string{}, "http"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["REQUEST_METHOD"] = "GET"
			tt.env["PATH_INFO"] = "/contact"
			r, err := cgi.RequestFromMap(tt.env, nil, nil)
			if err != nil || r.Scheme != tt.want || r.PathInfo != "/contact" {
				t.Errorf("%v %q %q", err, r.Scheme, r.PathInfo)
			}
		})
	}
}

func TestWriteErrorWith(t *testing.T) {
	var logged bytes.Buffer
	log.SetOutput(&logged)
	flags := log.Flags()
	log.SetFlags(0)
	defer log.SetFlags(flags)
	defer log.SetOutput(os.Stderr)
	req := &cgi.Request{Method: "GET", Header: cgi.Header{}}
	t.Run("a refusal is one line in the error log with its status and reason", func(t *testing.T) {
		logged.Reset()
		rec := newRecorder()
		cgi.WriteErrorWith(rec, req, &cgi.Error{Status: 404, Op: "form", Input: "/x", Msg: "no form"}, func(st int, msg string) ([]byte, error) {
			return []byte("<p>custom " + msg + "</p>"), nil
		})
		if logged.String() != "cgigate: 404: cgi: form \"/x\": no form\n" || rec.Code != 404 || !strings.Contains(rec.Body.String(), "custom") {
			t.Errorf("log %q, %d %q", logged.String(), rec.Code, rec.Body.String())
		}
	})
	t.Run("a page that fails is a 500 with the built-in page, never half a page", func(t *testing.T) {
		rec := newRecorder()
		cgi.WriteErrorWith(rec, req, &cgi.Error{Status: 403, Op: "origin"}, func(int, string) ([]byte, error) {
			return []byte("<p>half"), errors.New("template: no such field")
		})
		if rec.Code != 500 || strings.Contains(rec.Body.String(), "half") || !strings.Contains(logged.String(), "no such field") {
			t.Errorf("%d %q; log %q", rec.Code, rec.Body.String(), logged.String())
		}
	})
}
