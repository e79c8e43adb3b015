package cgi_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
)

func TestRequestFromMap(t *testing.T) {
	t.Run("QUERY_STRING decides the query even when REQUEST_URI says otherwise", func(t *testing.T) {
		r, err := cgi.RequestFromMap(cgiEnv("QUERY_STRING", "a=1", "REQUEST_URI", "/rewritten?b=2", "HTTP_HOST", "example.com"), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.RawQuery != "a=1" {
			t.Errorf("RawQuery %q; want %q", r.RawQuery, "a=1")
		}
	})
	t.Run("the Proxy header is dropped (httpoxy, corpus case 58)", func(t *testing.T) {
		r, err := cgi.RequestFromMap(cgiEnv("HTTP_PROXY", "http://127.0.0.1:9/"), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := r.Header["Proxy"]; ok {
			t.Errorf("Proxy header kept: %q", v)
		}
	})
	t.Run("no REQUEST_METHOD is a server fault", func(t *testing.T) {
		env := cgiEnv()
		delete(env, "REQUEST_METHOD")
		r, err := cgi.RequestFromMap(env, nil, nil)
		if r != nil {
			t.Errorf("request built without a method")
		}
		wantStatus(t, err, http.StatusInternalServerError)
	})
}

// Corpus case 61: CONTENT_LENGTH is accepted only as 1*digit.
func TestContentLengthForms(t *testing.T) {
	for _, tc := range []struct {
		cl     string
		status int
	}{
		{"-1", 400}, {"+5", 400}, {" 5", 400}, {"5 ", 400}, {"1e3", 400}, {"0x10", 400},
		{"99999999999999999999", 0}, {"12345678901", 0}, {"5", 0}, {"0", 0}, {"0005", 0},
	} {
		name := "CONTENT_LENGTH " + strings.ReplaceAll(tc.cl, " ", "␠") + " answers " + itoa(tc.status)
		if tc.status == 0 {
			name = "CONTENT_LENGTH " + tc.cl + " is a length"
		}
		t.Run(name, func(t *testing.T) {
			env := cgiEnv("REQUEST_METHOD", "POST", "CONTENT_TYPE", "application/x-www-form-urlencoded", "CONTENT_LENGTH", tc.cl)
			r, err := cgi.RequestFromMap(env, nil, strings.NewReader("a=1&b"))
			if tc.status == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if r == nil {
				t.Fatal("no request to answer the error with")
			}
			wantStatus(t, err, tc.status)
			if r.Body != nil {
				t.Error("a refused request has a body to read")
			}
		})
	}
	// RFC 3875 § 4.1.2 is 1*digit, with no bound on the digits: a decimal
	// over the limit is a length too large, whatever its size.
	for _, cl := range []string{"999999999999", "12345678901", "9223372036854775807", "9223372036854775808", "99999999999999999999", "0000000000000000000000010485761"} {
		t.Run("CONTENT_LENGTH "+cl+" is a valid decimal over the limit: 413 without reading a byte", func(t *testing.T) {
			env := cgiEnv("REQUEST_METHOD", "POST", "CONTENT_TYPE", "application/x-www-form-urlencoded", "CONTENT_LENGTH", cl)
			r, err := cgi.RequestFromMap(env, nil, failReader{t})
			if err != nil {
				t.Fatal(err)
			}
			_, err = cgi.ReadForm(r, cgi.Config{})
			wantStatus(t, err, http.StatusRequestEntityTooLarge)
			if !strings.Contains(err.Error(), strconv.Quote(cl)) {
				t.Errorf("%v does not name CONTENT_LENGTH as sent, %q", err, cl)
			}
		})
	}
	t.Run("a CONTENT_LENGTH over the limit is 413 without reading a byte", func(t *testing.T) {
		env := post("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", "2000")
		r, err := cgi.RequestFromMap(env, nil, failReader{t})
		if err != nil {
			t.Fatal(err)
		}
		_, err = cgi.ReadForm(r, cgi.Config{Limits: cgi.Limits{Body: 1000}})
		wantStatus(t, err, http.StatusRequestEntityTooLarge)
	})
	t.Run("a POST without CONTENT_LENGTH reads stdin to its end, as Apache sends a chunked body", func(t *testing.T) {
		env := cgiEnv("REQUEST_METHOD", "POST", "CONTENT_TYPE", "application/x-www-form-urlencoded", "QUERY_STRING", "q=1")
		f, err := readFormFrom(t, env, strings.NewReader("a=2"), cgi.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if got := fieldsOf(f); len(got) != 2 || got[1] != [3]string{"a", "2", "body"} {
			t.Errorf("fields %q", got)
		}
	})
	t.Run("a POST without CONTENT_LENGTH over the limit is 413", func(t *testing.T) {
		env := cgiEnv("REQUEST_METHOD", "POST", "CONTENT_TYPE", "application/x-www-form-urlencoded")
		_, err := readFormFrom(t, env, strings.NewReader(strings.Repeat("a", 101)), cgi.Config{Limits: cgi.Limits{Body: 100}})
		wantStatus(t, err, http.StatusRequestEntityTooLarge)
	})
	t.Run("a GET without CONTENT_LENGTH never reads stdin", func(t *testing.T) {
		if _, err := readFormFrom(t, cgiEnv("QUERY_STRING", "a=1"), failReader{t}, cgi.Config{}); err != nil {
			t.Fatal(err)
		}
	})
}

// failReader fails the test when read: the body must not be touched.
type failReader struct{ t *testing.T }

func (f failReader) Read([]byte) (int, error) {
	f.t.Error("the body was read")
	return 0, nil
}

// The words Apache passes in argv are compared with QUERY_STRING, never
// used (CVE-2012-1823, CVE-2024-4577).
func TestArgs(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		args        []string
		keywords    []string
		warn        string
	}{
		{"argv equal to the query's words gives no warning", "foo+bar", []string{"foo", "bar"}, []string{"foo", "bar"}, ""},
		{"backslash-escaped argv words compare unescaped", "a%3Bb+c", []string{`a\;b`, "c"}, []string{"a;b", "c"}, ""},
		{"an option-like argv word that differs is only a warning", "foo", []string{"-s", "-dallow_url_include=1"}, []string{"foo"}, "differ"},
		{"argv beside a FORM query is ignored with a warning", "a=1", []string{"-s"}, nil, "ignored"},
		// Apache's argv for "[EUC-JP]:%B0%F5+x": the hint stays in the first word.
		{"a charset hint at the head of argv is no difference", "[EUC-JP]:%B0%F5%BA%FE+x", []string{"\\[EUC-JP\\]:\xb0\xf5\xba\xfe", "x"}, []string{"印刷", "x"}, ""},
		{"a hint alone in argv is no argument", "[EUC-JP]:", []string{"\\[EUC-JP\\]:"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := cgi.RequestFromMap(cgiEnv("QUERY_STRING", tc.query), tc.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := cgi.ReadForm(r, cgi.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(f.Keywords, "|") != strings.Join(tc.keywords, "|") {
				t.Errorf("keywords %q; want %q", f.Keywords, tc.keywords)
			}
			w := strings.Join(f.Warnings, "\n")
			if tc.warn == "" && w != "" || !strings.Contains(w, tc.warn) {
				t.Errorf("warnings %q; want one with %q", f.Warnings, tc.warn)
			}
		})
	}
}
