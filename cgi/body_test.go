package cgi_test

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder"
)

func TestReadFormBodies(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		body     string
		kind     decoder.Kind
		keywords []string
		fields   [][3]string
	}{
		{"a GET ISINDEX query gives keywords", cgiEnv("QUERY_STRING", "foo+bar%2Bbaz"), "",
			decoder.ISINDEX, []string{"foo", "bar+baz"}, nil},
		{"a HEAD ISINDEX query gives keywords", cgiEnv("REQUEST_METHOD", "HEAD", "QUERY_STRING", "foo"), "",
			decoder.ISINDEX, []string{"foo"}, nil},
		{"no query is empty", cgiEnv(), "", decoder.Empty, nil, nil},
		{"a urlencoded body is split on '&' and '+' is a space",
			post("application/x-www-form-urlencoded", "a=1+2&b=%3C%3E&c"), "a=1+2&b=%3C%3E&c",
			decoder.Form, nil, [][3]string{{"a", "1 2", "body"}, {"b", "<>", "body"}, {"c", "", "body"}}},
		{"a POST with a query keeps both, query fields first",
			post("application/x-www-form-urlencoded", "b=2", "QUERY_STRING", "a=1&c=3"), "b=2",
			decoder.Form, nil, [][3]string{{"a", "1", "query"}, {"c", "3", "query"}, {"b", "2", "body"}}},
		{"an ISINDEX query on a POST gives no keywords (corpus case 26)",
			post("application/x-www-form-urlencoded", "b=2", "QUERY_STRING", "foo"), "b=2",
			decoder.Form, nil, [][3]string{{"b", "2", "body"}}},
		{"a text/plain body splits each line at its first '=' (corpus case 57)",
			post("text/plain", "a=b=c\r\nd\r\n"), "a=b=c\r\nd\r\n",
			decoder.Form, nil, [][3]string{{"a", "b=c", "body"}, {"d", "", "body"}}},
		{"text/plain is not percent-decoded",
			post("text/plain", "a=%41+b\r\n"), "a=%41+b\r\n",
			decoder.Form, nil, [][3]string{{"a", "%41+b", "body"}}},
		{"';' is not a separator (CVE-2021-23336)",
			post("application/x-www-form-urlencoded", "a=1;b=2"), "a=1;b=2",
			decoder.Form, nil, [][3]string{{"a", "1;b=2", "body"}}},
		{"an empty POST body is an empty form",
			post("application/x-www-form-urlencoded", ""), "",
			decoder.Empty, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := readForm(t, tc.env, tc.body, cgi.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if f.Kind != tc.kind {
				t.Errorf("kind %v; want %v", f.Kind, tc.kind)
			}
			if !reflect.DeepEqual(f.Keywords, tc.keywords) && (len(f.Keywords)+len(tc.keywords) > 0) {
				t.Errorf("keywords %q; want %q", f.Keywords, tc.keywords)
			}
			if got := fieldsOf(f); !reflect.DeepEqual(got, tc.fields) {
				t.Errorf("fields %q; want %q", got, tc.fields)
			}
		})
	}
}

func TestReadFormRefusals(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    map[string]string
		body   io.Reader
		cfg    cgi.Config
		status int
		msg    string
	}{
		{"an unknown Content-Type is 415", post("application/xml", "<a/>"), strings.NewReader("<a/>"), cgi.Config{}, 415, "application/xml"},
		{"a body without a Content-Type is 415", post("", "a=1"), strings.NewReader("a=1"), cgi.Config{}, 415, "Content-Type"},
		{"a malformed Content-Type is 400", post("multipart/form-data; boundary=", "a"), strings.NewReader("a"), cgi.Config{}, 400, "Content-Type"},
		{"a PUT is 405", cgiEnv("REQUEST_METHOD", "PUT"), nil, cgi.Config{}, 405, "PUT"},
		{"a body shorter than CONTENT_LENGTH is 400 (corpus case 62)",
			post("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", "100"), strings.NewReader("a=1&b=2&c="), cgi.Config{}, 400, "10 of the 100"},
		{"a body over the limit without a CONTENT_LENGTH cap is 413",
			post("application/x-www-form-urlencoded", strings.Repeat("a", 100)), strings.NewReader(strings.Repeat("a", 100)),
			cgi.Config{Limits: cgi.Limits{Body: 99}}, 413, "99"},
		{"too many fields is 413", post("application/x-www-form-urlencoded", "a&b&c"), strings.NewReader("a&b&c"),
			cgi.Config{Decoder: decoder.Options{Limits: decoder.Limits{Fields: 2}}}, 413, "fields"},
		{"an unknown charset is 400 naming it", post("application/x-www-form-urlencoded; charset=x-no-such", "a=%E5"), strings.NewReader("a=%E5"),
			cgi.Config{}, 400, "x-no-such"},
		{"an unknown _charset_ is 400 naming it", post("application/x-www-form-urlencoded", "_charset_=klingon&a=%E5"), strings.NewReader("_charset_=klingon&a=%E5"),
			cgi.Config{}, 400, "klingon"},
		{"a stalled body is 408 at the read deadline (corpus case 62)",
			post("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", "10"), stallReader{}, cgi.Config{Limits: cgi.Limits{ReadTimeout: time.Millisecond}}, 408, "not received"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := readFormFrom(t, tc.env, tc.body, tc.cfg)
			if f != nil {
				t.Errorf("a partial form was returned: %+v", f)
			}
			wantStatus(t, err, tc.status)
			if msg := cgi.Message(err); !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q does not name %q", msg, tc.msg)
			}
		})
	}
}

// stallReader never delivers a byte, as a client that stopped sending.
type stallReader struct{}

func (stallReader) Read([]byte) (int, error) { select {} }

func TestCharsetSources(t *testing.T) {
	sjis := loadEncoded(t, "shift_jis", "印刷")
	esc := escape(sjis.bytes(t))
	for _, tc := range []struct {
		name   string
		env    map[string]string
		body   string
		cfg    cgi.Config
		source decoder.Source
	}{
		{"a hint at the head of the query decides", cgiEnv("QUERY_STRING", "[Shift_JIS]:q="+esc), "", cgi.Config{}, decoder.SourceHint},
		{"the _charset_ field decides", cgiEnv("QUERY_STRING", "_charset_=shift_jis&q="+esc), "", cgi.Config{}, decoder.SourceCharsetField},
		{"the Content-Type charset decides for the query and the body",
			post("application/x-www-form-urlencoded; charset=Shift_JIS", "q="+esc), "q=" + esc, cgi.Config{}, decoder.SourceContentType},
		{"the deployment's charset decides when the request names none",
			cgiEnv("QUERY_STRING", "q="+esc), "", cgi.Config{Decoder: decoder.Options{Charset: "sjis"}}, decoder.SourceConfig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := readForm(t, tc.env, tc.body, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if f.CharsetSource != tc.source || f.Charset != "shift_jis" {
				t.Errorf("charset %s from %s; want shift_jis from %s", f.Charset, f.CharsetSource, tc.source)
			}
			if v := f.Values("q"); len(v) != 1 || v[0] != sjis.Text {
				t.Errorf("q = %q; want %q", v, sjis.Text)
			}
		})
	}
	t.Run("ASCII with no hint is the default, UTF-8", func(t *testing.T) {
		f, err := readForm(t, cgiEnv("QUERY_STRING", "q=abc"), "", cgi.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if f.CharsetSource != decoder.SourceDefault || f.Charset != "utf-8" {
			t.Errorf("charset %s from %s", f.Charset, f.CharsetSource)
		}
	})
}

func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}
