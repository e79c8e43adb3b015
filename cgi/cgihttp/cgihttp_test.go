package cgihttp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/cgi/cgihttp"
)

func TestRequest(t *testing.T) {
	t.Run("the Proxy header is dropped and the client's port with it", func(t *testing.T) {
		hr := httptest.NewRequest("GET", "/cgi-bin/cgigate/x?a=1", nil)
		hr.Header.Set("Proxy", "http://127.0.0.1:9/")
		hr.Header.Set("Accept-Language", "ja")
		hr.RemoteAddr = "[2001:db8::1]:40000"
		r := cgihttp.Request(hr)
		if _, ok := r.Header["Proxy"]; ok || r.Header.Get("Accept-Language") != "ja" {
			t.Errorf("header %v", r.Header)
		}
		if r.RemoteAddr != "2001:db8::1" || r.RawQuery != "a=1" || r.Path != "/cgi-bin/cgigate/x" || r.Method != "GET" {
			t.Errorf("request %+v", r)
		}
		if hr.Header.Get("Proxy") == "" {
			t.Error("the http.Request's own header was changed")
		}
	})
	t.Run("no body is a nil Body; a body keeps its length", func(t *testing.T) {
		if r := cgihttp.Request(httptest.NewRequest("GET", "/", nil)); r.Body != nil || r.ContentLength != 0 {
			t.Errorf("Body %v length %d", r.Body, r.ContentLength)
		}
		r := cgihttp.Request(httptest.NewRequest("POST", "/", strings.NewReader("a=1")))
		b, _ := io.ReadAll(r.Body)
		if string(b) != "a=1" || r.ContentLength != 3 {
			t.Errorf("body %q length %d", b, r.ContentLength)
		}
	})
}

func TestHandler(t *testing.T) {
	t.Run("headers set behind SetHeader's back are left out, and the type defaults to text/plain", func(t *testing.T) {
		h := cgihttp.Handler(cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
			w.Header()["X-Next"] = []string{"a\r\nSet-Cookie: a=b"}
			w.Header()["Location"] = []string{"/cgi-bin/admin.cgi"}
			w.Write([]byte("<html>"))
		}))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		for _, k := range []string{"X-Next", "Location", "Set-Cookie"} {
			if v, ok := w.Header()[k]; ok {
				t.Errorf("%s: %q sent", k, v)
			}
		}
		if ct := w.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" || w.Code != http.StatusOK {
			t.Errorf("status %d Content-Type %q", w.Code, ct)
		}
	})
	t.Run("a panic is a 500 whose reason stays out of the answer", func(t *testing.T) {
		h := cgihttp.Handler(cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) { panic("secret internals") }))
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept", "application/json")
		h.ServeHTTP(w, r)
		if w.Code != http.StatusInternalServerError || strings.Contains(w.Body.String(), "secret") {
			t.Errorf("status %d body %q", w.Code, w.Body.String())
		}
	})
	t.Run("a form is read from the query and the body", func(t *testing.T) {
		h := cgihttp.Handler(cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
			f, err := cgi.ReadForm(r, cgi.Config{TempDir: t.TempDir()})
			if err != nil {
				cgi.WriteError(w, r, err)
				return
			}
			defer f.Close()
			var b strings.Builder
			for _, fd := range f.Fields {
				b.WriteString(fd.Name + "=" + fd.Value + " (" + fd.Origin + ")\n")
			}
			cgi.Respond(w, cgi.StatusOK, cgi.Text, []byte(b.String()))
		}))
		r := httptest.NewRequest("POST", "/?q=%E5%8D%B0", strings.NewReader("a=%C3%A9"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if want := "q=印 (query)\na=é (body)\n"; w.Body.String() != want {
			t.Errorf("status %d body %q; want %q", w.Code, w.Body.String(), want)
		}
	})
}

// httptest's recorder keeps what a handler writes for HEAD, as
// net/http/fcgi passes it on: the body must be dropped by the writer.
func TestHandlerAnswersHEADWithGETsHeaderAndNoBody(t *testing.T) {
	h := cgihttp.Handler(cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cgi.Respond(w, cgi.StatusOK, cgi.HTML, []byte("<p>hello</p>"))
	}))
	answer := func(method string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(method, "/cgi-bin/cgigate?hello", nil))
		return w
	}
	get, head := answer("GET"), answer("HEAD")
	if get.Body.String() != "<p>hello</p>" {
		t.Fatalf("GET body %q", get.Body.String())
	}
	if head.Body.Len() != 0 {
		t.Errorf("HEAD body %q, want none", head.Body.String())
	}
	if head.Code != get.Code || !reflect.DeepEqual(head.Header(), get.Header()) {
		t.Errorf("HEAD %d %v, GET %d %v: want the same status and header", head.Code, head.Header(), get.Code, get.Header())
	}
}
