package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/cgi"
)

// Every body type through net/http/cgi.Handler, Go's own CGI host.
func TestBodiesThroughCGIHandler(t *testing.T) {
	var mpBody bytes.Buffer
	mw := multipart.NewWriter(&mpBody)
	mw.WriteField("title", "印刷")
	fw, _ := mw.CreateFormFile("upload", "report.txt")
	fw.Write([]byte("file content\n"))
	mw.Close()
	fileSum := sha256.Sum256([]byte("file content\n"))

	for _, tc := range []struct {
		name, method, target, ct, body string
		kind                           string
		fields                         []fieldJSON
		keywords                       []string
		files                          []fileJSON
	}{
		{"an ISINDEX query gives its keywords", "GET", "/cgi-bin/cgigate?foo+%E5%8D%B0", "", "",
			"isindex", nil, []string{"foo", "印"}, nil},
		{"a FORM query gives its fields", "GET", "/cgi-bin/cgigate?a=1&b=%3C", "", "",
			"form", []fieldJSON{{"a", "1", "query"}, {"b", "<", "query"}}, nil, nil},
		{"a urlencoded POST with a query keeps both, query first", "POST", "/cgi-bin/cgigate?q=0", "application/x-www-form-urlencoded", "a=1+2&b=%E5%8D%B0",
			"form", []fieldJSON{{"q", "0", "query"}, {"a", "1 2", "body"}, {"b", "印", "body"}}, nil, nil},
		{"a text/plain POST gives its lines", "POST", "/cgi-bin/cgigate", "text/plain", "a=b=c\r\nd\r\n",
			"form", []fieldJSON{{"a", "b=c", "body"}, {"d", "", "body"}}, nil, nil},
		{"a multipart POST gives its fields and files", "POST", "/cgi-bin/cgigate", mw.FormDataContentType(), mpBody.String(),
			"form", []fieldJSON{{"title", "印刷", "body"}}, nil,
			[]fileJSON{{"upload", "report.txt", "application/octet-stream", 13, hex.EncodeToString(fileSum[:])}}},
		{"an ISINDEX query on a POST gives no keywords (corpus case 26)", "POST", "/cgi-bin/cgigate?foo", "application/x-www-form-urlencoded", "a=1",
			"form", []fieldJSON{{"a", "1", "body"}}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body))
			if tc.ct != "" {
				req.Header.Set("Content-Type", tc.ct)
			}
			req.Header.Set("Accept", "application/json")
			w := viaHandler(t, req)
			if w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body.String())
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			r := jsonResult(t, w.Body.String())
			if r.Kind != tc.kind || r.Method != tc.method {
				t.Errorf("kind %q method %q", r.Kind, r.Method)
			}
			if !equal(r.Fields, tc.fields) || !equal(r.Keywords, tc.keywords) || !equal(r.Files, tc.files) {
				t.Errorf("fields %+v keywords %q files %+v", r.Fields, r.Keywords, r.Files)
			}
		})
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestErrorStatuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    map[string]string
		stdin  string
		status int
		names  string // the message must contain it
	}{
		{"an unknown Content-Type is 415", postEnv("application/xml", "<a/>"), "<a/>", 415, "application/xml"},
		{"a CONTENT_LENGTH over CGIGATE_MAX_BODY is 413", postEnv("application/x-www-form-urlencoded", "a=1234567", "CGIGATE_MAX_BODY", "5"), "", 413, "more than 5 bytes"},
		{"a body shorter than CONTENT_LENGTH is 400", postEnv("application/x-www-form-urlencoded", "a=1&b=2&c=3"), "a=1", 400, "3 of the 11"},
		{"a multipart body without its closing boundary is 400", postEnv("multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA"),
			"--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA", 400, "broken"},
		{"an unknown charset is 400 naming it", cgiEnv("QUERY_STRING", "[x-klingon]:q=%E5"), "", 400, "x-klingon"},
		{"too many fields is 413", cgiEnv("QUERY_STRING", "a=1&b=2&c=3", "CGIGATE_MAX_FIELDS", "2"), "", 413, "fields"},
		{"a bad CONTENT_LENGTH is 400", postEnv("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", "-1"), "", 400, `"-1"`},
		{"a DELETE is 405", cgiEnv("REQUEST_METHOD", "DELETE"), "", 405, "DELETE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.env[acceptJSON] = "application/json"
			a := runCGI(t, tc.env, nil, strings.NewReader(tc.stdin))
			msg, st := jsonError(t, a.body)
			if a.status != tc.status || st != tc.status || !strings.Contains(msg, tc.names) {
				t.Errorf("status %d/%d message %q; want %d naming %q", a.status, st, msg, tc.status, tc.names)
			}
			if strings.Count(a.stderr, "\n") != 1 || !strings.HasPrefix(a.stderr, fmt.Sprintf("cgigate: %d: ", tc.status)) || !strings.Contains(a.stderr, tc.names) {
				t.Errorf("error log %q; want one line with the status and the reason", a.stderr)
			}
		})
	}
	t.Run("a bad setting is a 500 with the reason on stderr only", func(t *testing.T) {
		a := get(t, "a=1", "CGIGATE_SEPARATOR", "|", acceptJSON, "application/json")
		msg, st := jsonError(t, a.body)
		if a.status != 500 || st != 500 || strings.Contains(msg, "SEPARATOR") {
			t.Errorf("status %d message %q", a.status, msg)
		}
		if !strings.Contains(a.stderr, `CGIGATE_SEPARATOR="|"`) {
			t.Errorf("stderr %q does not name the setting", a.stderr)
		}
	})
	for _, bad := range [][2]string{{"CGIGATE_CHARSET", "x-klingon"}, {"CGIGATE_SNIFF", "yes"}, {"CGIGATE_NCR", "2"}, {"CGIGATE_MAX_BODY", "-5"}, {"CGIGATE_MAX_FIELDS", "lots"}} {
		t.Run("a bad "+bad[0]+" is a 500 misconfiguration", func(t *testing.T) {
			a := get(t, "a=1", bad[0], bad[1])
			if a.status != 500 || !strings.Contains(a.stderr, bad[0]) {
				t.Errorf("status %d stderr %q", a.status, a.stderr)
			}
		})
	}
}

func TestSettings(t *testing.T) {
	sjis := "%88%F3%8D%FC" // 印刷 in Shift_JIS (Python: "印刷".encode("shift_jis"))
	for _, tc := range []struct {
		name, query string
		kv          []string
		field       string
		source      string
	}{
		{"CGIGATE_CHARSET decodes unnamed bytes", "q=" + sjis, []string{"CGIGATE_CHARSET", "shift_jis"}, "印刷", "config"},
		{"CGIGATE_SNIFF=0 decodes unnamed bytes as UTF-8 with U+FFFD", "q=" + sjis, []string{"CGIGATE_SNIFF", "0"}, "", "default"},
		{"CGIGATE_NCR=1 turns character references into characters", "q=%26%2321360%3B", []string{"CGIGATE_NCR", "1"}, "印", "default"},
		{"CGIGATE_NCR unset keeps character references", "q=%26%2321360%3B", nil, "&#21360;", "default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := get(t, tc.query, append(tc.kv, acceptJSON, "application/json")...)
			r := jsonResult(t, a.body)
			if len(r.Fields) != 1 || tc.field != "" && r.Fields[0].Value != tc.field || r.CharsetSource != tc.source {
				t.Errorf("fields %+v source %s", r.Fields, r.CharsetSource)
			}
			if tc.field == "" && !strings.Contains(r.Fields[0].Value, "\uFFFD") {
				t.Errorf("value %q has no U+FFFD", r.Fields[0].Value)
			}
		})
	}
	t.Run("CGIGATE_SEPARATOR=&; splits on ';' as well", func(t *testing.T) {
		r := jsonResult(t, get(t, "a=1;b=2", "CGIGATE_SEPARATOR", "&;", acceptJSON, "application/json").body)
		if len(r.Fields) != 2 {
			t.Errorf("fields %+v", r.Fields)
		}
	})
	t.Run("-help shows every setting with its default", func(t *testing.T) {
		out, _ := execOut(t, nil, "-help")
		for _, s := range settings {
			if !regexp.MustCompile(regexp.QuoteMeta(s.name) + ` \(default `).MatchString(out) {
				t.Errorf("-help does not show %s with its default:\n%s", s.name, out)
			}
		}
	})
}

func TestCharsetSourcesThroughTheBinary(t *testing.T) {
	sjis := "%88%F3%8D%FC"
	for _, tc := range []struct {
		name, source string
		a            answer
	}{
		{"a query hint", "hint", get(t, "[Shift_JIS]:q="+sjis, acceptJSON, "application/json")},
		{"the _charset_ field", "_charset_", get(t, "_charset_=shift_jis&q="+sjis, acceptJSON, "application/json")},
		{"the body's Content-Type", "content-type", postCGI(t, "application/x-www-form-urlencoded; charset=shift_jis", "q="+sjis, acceptJSON, "application/json")},
		{"the deployment's setting", "config", get(t, "q="+sjis, "CGIGATE_CHARSET", "sjis", acceptJSON, "application/json")},
	} {
		t.Run("the charset comes from "+tc.name, func(t *testing.T) {
			r := jsonResult(t, tc.a.body)
			if r.Charset != "shift_jis" || r.CharsetSource != tc.source || r.Fields[len(r.Fields)-1].Value != "印刷" {
				t.Errorf("charset %s from %s, fields %+v", r.Charset, r.CharsetSource, r.Fields)
			}
		})
	}
	t.Run("UTF-8 bytes nothing names are sniffed", func(t *testing.T) {
		r := jsonResult(t, get(t, "q=%E5%8D%B0", acceptJSON, "application/json").body)
		if r.Charset != "utf-8" || r.CharsetSource != "sniffed" {
			t.Errorf("charset %s from %s", r.Charset, r.CharsetSource)
		}
	})
	t.Run("ASCII is the default", func(t *testing.T) {
		r := jsonResult(t, get(t, "q=a", acceptJSON, "application/json").body)
		if r.Charset != "utf-8" || r.CharsetSource != "default" {
			t.Errorf("charset %s from %s", r.Charset, r.CharsetSource)
		}
	})
}

// In an EBCDIC charset every ASCII byte stands for another character:
// ibm037 reads "L%A2%83%99%89%97%A3n" as "<script>" (Python:
// b"L\xa2\x83\x99\x89\x97\xa3n".decode("cp037")). Whichever source names
// one, the request is refused naming the label, as an unknown one is.
func TestCharsetsThatAreNotASCIICompatibleAreRefused(t *testing.T) {
	const script = "q=L%A2%83%99%89%97%A3n"
	for _, tc := range []struct {
		name, label string
		a           answer
	}{
		{"a _charset_ field of a GET naming ibm037 is 400", "ibm037", get(t, "_charset_=ibm037&"+script, acceptJSON, "application/json")},
		{"a _charset_ field of a POST naming an alias of ibm037 is 400", "ebcdic-cp-us",
			postCGI(t, "application/x-www-form-urlencoded", "_charset_=ebcdic-cp-us&"+script, acceptJSON, "application/json")},
		{"a query hint [IBM037]: is 400", "IBM037", get(t, "[IBM037]:"+script, acceptJSON, "application/json")},
		{"a query hint [charset:cp01140]: is 400", "cp01140", get(t, "[charset:cp01140]:"+script, acceptJSON, "application/json")},
		{"a Content-Type charset=ibm1047 is 400", "ibm1047",
			postCGI(t, "application/x-www-form-urlencoded; charset=ibm1047", script, acceptJSON, "application/json")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, st := jsonError(t, tc.a.body)
			if tc.a.status != 400 || st != 400 || !strings.Contains(msg, tc.label) {
				t.Errorf("status %d/%d message %q; want 400 naming %q", tc.a.status, st, msg, tc.label)
			}
			if strings.Contains(tc.a.body, "script") {
				t.Errorf("the refusal shows the decoded payload: %s", tc.a.body)
			}
		})
	}
	t.Run("CGIGATE_CHARSET=ibm037 is a 500 misconfiguration that says why on stderr", func(t *testing.T) {
		a := get(t, script, "CGIGATE_CHARSET", "ibm037", acceptJSON, "application/json")
		msg, st := jsonError(t, a.body)
		if a.status != 500 || st != 500 || strings.Contains(msg, "ibm037") {
			t.Errorf("status %d/%d message %q", a.status, st, msg)
		}
		if !strings.Contains(a.stderr, `CGIGATE_CHARSET="ibm037"`) || !strings.Contains(a.stderr, "ASCII") {
			t.Errorf("stderr %q does not name the setting and the reason", a.stderr)
		}
	})
}

// xss are payloads for every rendered place (names, values, keywords),
// each with what must never appear in the HTML if it is escaped.
var xss = []struct{ payload, never string }{
	{`"><svg onload=alert(1)>`, "<svg"},
	{`<script>alert(1)</script>`, "<script>alert"},
	{`' onmouseover='alert(1)`, "' onmouseover='"},
	{"javascript:alert(1)", `href="javascript:`},
}

func TestRenderingEscapes(t *testing.T) {
	for _, x := range xss {
		p := x.payload
		q := url.QueryEscape(p) + "=" + url.QueryEscape(p)
		kw := strings.ReplaceAll(url.QueryEscape(p), "+", "%20") // one ISINDEX word, its '=' encoded
		for _, tc := range []struct{ name, query string }{{"a field", q}, {"a keyword", kw}} {
			t.Run("HTML escapes "+p+" in "+tc.name, func(t *testing.T) {
				a := get(t, tc.query)
				if a.status != 200 || a.header.Get("Content-Type") != "text/html; charset=utf-8" {
					t.Fatalf("status %d type %q", a.status, a.header.Get("Content-Type"))
				}
				if strings.Contains(a.body, x.never) {
					t.Errorf("payload %q unescaped in:\n%s", p, a.body)
				}
			})
			t.Run("JSON carries "+p+" as data in "+tc.name, func(t *testing.T) {
				r := jsonResult(t, get(t, tc.query, acceptJSON, "application/json").body)
				got := append(append([]string{}, r.Keywords...), func() []string {
					var s []string
					for _, f := range r.Fields {
						s = append(s, f.Name, f.Value)
					}
					return s
				}()...)
				if !strings.Contains(strings.Join(got, "\n"), p) {
					t.Errorf("payload not carried: %q", got)
				}
			})
			t.Run("text renders "+p+" quoted in "+tc.name, func(t *testing.T) {
				a := get(t, tc.query, acceptJSON, "text/plain")
				if a.header.Get("Content-Type") != "text/plain; charset=utf-8" || !strings.Contains(a.body, strconv.Quote(p)) {
					t.Errorf("type %q body %q", a.header.Get("Content-Type"), a.body)
				}
			})
		}
	}
	t.Run("html/template output for corpus case 66 is the expected escape", func(t *testing.T) {
		a := get(t, "q="+url.QueryEscape(`"><svg onload=alert(1)>`))
		if !strings.Contains(a.body, "&#34;&gt;&lt;svg onload=alert(1)&gt;") {
			t.Errorf("body:\n%s", a.body)
		}
	})
	t.Run("invalid UTF-8 is never rendered (corpus case 68)", func(t *testing.T) {
		for _, accept := range []string{"text/html", "application/json", "text/plain"} {
			a := get(t, "q=%FF%FE%3Cx%3E", "CGIGATE_SNIFF", "0", acceptJSON, accept)
			if !utf8.ValidString(a.body) || !strings.Contains(a.body, "\uFFFD") {
				t.Errorf("%s body %q", accept, a.body)
			}
		}
	})
	t.Run("keywords without an index do not claim that nothing matched", func(t *testing.T) {
		if a := get(t, "foo"); strings.Contains(a.body, "Nothing matches your search") {
			t.Errorf("body:\n%s", a.body)
		}
		dir := makeIndex(t, map[string]string{"a.txt": "bar"})
		if a := get(t, "foo", "CGIGATE_INDEX_DIR", dir); !strings.Contains(a.body, "Nothing matches your search") {
			t.Errorf("body:\n%s", a.body)
		}
	})
	t.Run("an HTML error page runs nothing", func(t *testing.T) {
		a := get(t, "", "REQUEST_METHOD", "PUT")
		if csp := a.header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none'") || a.header.Get("Allow") != "GET, HEAD, POST" {
			t.Errorf("status %d headers %v", a.status, a.header)
		}
	})
	t.Run("no response sets a Content-Length of its own", func(t *testing.T) {
		for _, a := range []answer{get(t, ""), get(t, "a=1"), get(t, "foo"), get(t, "", "REQUEST_METHOD", "PUT")} {
			if v, ok := a.header["Content-Length"]; ok {
				t.Errorf("Content-Length %q", v)
			}
			if !strings.HasSuffix(a.header.Get("Content-Type"), "; charset=utf-8") {
				t.Errorf("Content-Type %q", a.header.Get("Content-Type"))
			}
		}
	})
}

// A page past cgi.StreamHold goes out as it is rendered: it must arrive
// whole, with its headers, in every format.
func TestLargePagesArriveWhole(t *testing.T) {
	value := strings.Repeat("印<é>", 40000) // 280 kB decoded, more escaped
	body := "v=" + url.QueryEscape(value) + "&w=%FF"
	for _, accept := range []string{"text/html", "application/json", "text/plain"} {
		t.Run("a "+accept+" page of a 280 kB value holds all of it", func(t *testing.T) {
			a := postCGI(t, "application/x-www-form-urlencoded", body, "CGIGATE_SNIFF", "0", acceptJSON, accept)
			if a.status != 200 || a.header.Get("Content-Type") != accept+"; charset=utf-8" || a.header.Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("status %d headers %v", a.status, a.header)
			}
			if !utf8.ValidString(a.body) || len(a.body) < len(value) {
				t.Fatalf("%d bytes, valid UTF-8 %v", len(a.body), utf8.ValidString(a.body))
			}
			switch accept {
			case "application/json":
				r := jsonResult(t, a.body)
				if len(r.Fields) != 2 || r.Fields[0].Value != value || r.Fields[1].Value != "\uFFFD" {
					t.Errorf("%d fields", len(r.Fields))
				}
			case "text/plain":
				if !strings.Contains(a.body, strconv.Quote(value)) || !strings.HasSuffix(a.body, "\n") {
					t.Errorf("value missing or page cut short: %.60q", a.body[len(a.body)-min(60, len(a.body)):])
				}
			default:
				esc := strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(value)
				if !strings.Contains(a.body, esc) || !strings.HasSuffix(a.body, "</body></html>\n") {
					t.Errorf("value missing or page cut short: %.60q", a.body[len(a.body)-min(60, len(a.body)):])
				}
			}
		})
	}
}

func TestPromptPage(t *testing.T) {
	a := get(t, "")
	t.Run("no query answers the ISINDEX prompt", func(t *testing.T) {
		if a.status != 200 || !strings.Contains(a.body, `name="isindex"`) || !strings.Contains(a.body, `method="get"`) {
			t.Errorf("status %d body:\n%s", a.status, a.body)
		}
	})
	t.Run("the prompt's script joins percent-encoded words with '+'", func(t *testing.T) {
		for _, s := range []string{`words.join("+")`, "encodeURIComponent", `location.search = "?"`} {
			if !strings.Contains(a.body, s) {
				t.Errorf("script lacks %q:\n%s", s, a.body)
			}
		}
	})
	t.Run("the Content-Security-Policy allows exactly the prompt's script", func(t *testing.T) {
		m := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(a.body)
		if m == nil {
			t.Fatal("no script")
		}
		sum := sha256.Sum256([]byte(m[1]))
		want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if csp := a.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src "+want) {
			t.Errorf("CSP %q lacks %s", csp, want)
		}
	})
	t.Run("the no-script fallback's isindex field becomes the keywords", func(t *testing.T) {
		r := jsonResult(t, get(t, "isindex=foo+bar++baz", acceptJSON, "application/json").body)
		if r.Kind != "isindex" || !equal(r.Keywords, []string{"foo", "bar", "baz"}) || len(r.Fields) != 0 {
			t.Errorf("kind %s keywords %q fields %+v", r.Kind, r.Keywords, r.Fields)
		}
	})
	t.Run("an isindex field beside other fields stays a field", func(t *testing.T) {
		r := jsonResult(t, get(t, "isindex=foo&a=1", acceptJSON, "application/json").body)
		if r.Kind != "form" || len(r.Fields) != 2 {
			t.Errorf("kind %s fields %+v", r.Kind, r.Fields)
		}
	})
	t.Run("JSON for no query is the empty kind, not the page", func(t *testing.T) {
		r := jsonResult(t, get(t, "", acceptJSON, "application/json").body)
		if r.Kind != "empty" {
			t.Errorf("kind %s", r.Kind)
		}
	})
}

// argv words are never options (CVE-2012-1823, CVE-2024-4577): with
// GATEWAY_INTERFACE set, "-http ADDR" or "-help" in argv answer the CGI
// request as any other.
func TestArgvIsNeverOptions(t *testing.T) {
	for _, args := range [][]string{{"-http", "127.0.0.1:1"}, {"-help"}, {"-fcgi", ":1"}, {"-s"}} {
		t.Run("argv "+strings.Join(args, " ")+" answers the query", func(t *testing.T) {
			q := url.QueryEscape(strings.Join(args, " "))
			a := runCGI(t, cgiEnv("QUERY_STRING", q, acceptJSON, "application/json"), args, strings.NewReader(""))
			r := jsonResult(t, a.body)
			if a.status != 200 || !equal(r.Keywords, args) {
				t.Errorf("status %d keywords %q", a.status, r.Keywords)
			}
		})
	}
	t.Run("argv that differs from QUERY_STRING loses, with a warning", func(t *testing.T) {
		a := runCGI(t, cgiEnv("QUERY_STRING", "foo", acceptJSON, "application/json"), []string{"-d", "allow_url_include=1"}, strings.NewReader(""))
		r := jsonResult(t, a.body)
		if !equal(r.Keywords, []string{"foo"}) || !strings.Contains(strings.Join(r.Warnings, " "), "differ") {
			t.Errorf("keywords %q warnings %q", r.Keywords, r.Warnings)
		}
	})
}

func execOut(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := execCommand(args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// encodedText is a text and its bytes in a charset, from Python's codecs
// (../../cgi/testdata/gen.py).
func encodedText(t *testing.T, charset, text string) string {
	t.Helper()
	b, err := os.ReadFile("../../cgi/testdata/encoded.json")
	if err != nil {
		t.Fatal(err)
	}
	var all []struct{ Charset, Text, Hex string }
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.Charset == charset && e.Text == text {
			raw, err := hex.DecodeString(e.Hex)
			if err != nil {
				t.Fatal(err)
			}
			var q strings.Builder
			for _, c := range raw {
				fmt.Fprintf(&q, "%%%02X", c)
			}
			return q.String()
		}
	}
	t.Fatalf("no %q in %s in encoded.json", text, charset)
	return ""
}

func TestSniffing(t *testing.T) {
	for _, tc := range []struct{ charset, text string }{{"shift_jis", "印刷します"}, {"euc-jp", "印刷する"}} {
		q := "q=" + encodedText(t, tc.charset, tc.text)
		t.Run("unnamed "+tc.charset+" is sniffed", func(t *testing.T) {
			r := jsonResult(t, get(t, q, acceptJSON, "application/json").body)
			if r.Charset != tc.charset || r.CharsetSource != "sniffed" || r.Fields[0].Value != tc.text {
				t.Errorf("charset %s from %s, fields %+v", r.Charset, r.CharsetSource, r.Fields)
			}
		})
		t.Run("with CGIGATE_SNIFF=0 unnamed "+tc.charset+" is not sniffed", func(t *testing.T) {
			r := jsonResult(t, get(t, q, "CGIGATE_SNIFF", "0", acceptJSON, "application/json").body)
			if r.Charset != "utf-8" || r.CharsetSource != "default" || !strings.Contains(r.Fields[0].Value, "\uFFFD") {
				t.Errorf("charset %s from %s, fields %+v", r.Charset, r.CharsetSource, r.Fields)
			}
		})
	}
}

// RFC 3875 § 4.3.2: the binary answers HEAD with the header GET gets and
// no body, for a page, a JSON rendering, a large page past StreamHold and
// an error.
func TestHEADIsGETsHeaderWithoutTheBody(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		min  int // the GET body's least length
	}{
		{"an ISINDEX page", []string{"QUERY_STRING", "hello+world"}, 1},
		{"a form as JSON", []string{"QUERY_STRING", "q=caf%C3%A9", "HTTP_ACCEPT", "application/json"}, 1},
		{"a page larger than what is held back", []string{"QUERY_STRING", "q=" + strings.Repeat("x", 100000)}, cgi.StreamHold + 1},
		{"an unknown charset's 400", []string{"QUERY_STRING", "_charset_=no-such-charset&q=1"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := runCGI(t, cgiEnv(tt.env...), nil, strings.NewReader(""))
			h := runCGI(t, cgiEnv(append(tt.env, "REQUEST_METHOD", "HEAD")...), nil, strings.NewReader(""))
			if len(g.body) < tt.min {
				t.Fatalf("GET answered %d with %d bytes of body, want at least %d", g.status, len(g.body), tt.min)
			}
			if h.body != "" {
				t.Errorf("HEAD answered with a body of %d bytes: %.80q", len(h.body), h.body)
			}
			if h.status != g.status || !reflect.DeepEqual(h.header, g.header) {
				t.Errorf("HEAD %d %v, GET %d %v: want the same status and header", h.status, h.header, g.status, g.header)
			}
		})
	}
}

// Every answer is chosen by the Accept header, the errors too, so every
// answer says so once (RFC 9110 § 12.5.5): a cache must not give a browser
// the JSON it kept for a script.
func TestEveryAnswerVariesByAccept(t *testing.T) {
	tests := []struct {
		name string
		env  []string
	}{
		{"the prompt page", []string{"QUERY_STRING", ""}},
		{"an empty query as JSON", []string{"QUERY_STRING", "", "HTTP_ACCEPT", "application/json"}},
		{"an ISINDEX page", []string{"QUERY_STRING", "hello+world"}},
		{"a form as text", []string{"QUERY_STRING", "a=1", "HTTP_ACCEPT", "text/plain"}},
		{"an unknown charset's 400", []string{"QUERY_STRING", "_charset_=no-such-charset&q=1", "HTTP_ACCEPT", "application/json"}},
		{"a PUT's 405", []string{"REQUEST_METHOD", "PUT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := runCGI(t, cgiEnv(tt.env...), nil, strings.NewReader(""))
			if v := a.header.Values("Vary"); len(v) != 1 || v[0] != "Accept" {
				t.Errorf("status %d, Vary %q; want one Vary: Accept", a.status, v)
			}
		})
	}
}
