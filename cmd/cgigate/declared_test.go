package main

import (
	"bytes"
	"encoding/json"
	"github.com/cgigate/cgigate/internal/record"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
	"golang.org/x/text/encoding/japanese"
)

// formsYAML declares the forms the tests below send to: contact (Shift_JIS,
// a redirect, recorded), note (no redirect: a thank-you page) and lookup
// (submitted by GET).
const formsYAML = `forms:
  contact:
    title: お問い合わせ
    charset: shift_jis
    fields:
      name:    {required: true, max: 20, label: お名前}
      email:   {required: true, kind: email, message: Please give an address we can answer.}
      topic:   {kind: choice, choices: [order, support, other]}
      message: {required: true, multiline: true}
    unknown: reject
    honeypot: website
    origins: [https://partner.example]
    redirect: /thanks.html
    record: true
  note:
    fields:
      text: {required: true}
    record: true
  lookup:
    methods: [GET]
    fields:
      q: {required: true}
    record: true
`

// site is a deployment with the forms declared and a record file.
type site struct {
	forms, record string
}

func newSite(t *testing.T) site {
	t.Helper()
	dir := t.TempDir()
	s := site{filepath.Join(dir, "forms.yaml"), filepath.Join(dir, "record.jsonl")}
	if err := os.WriteFile(s.forms, []byte(formsYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// env is the CGI environment of a request to /cgi-bin/cgigate/NAME.
func (s site) env(pathInfo string, kv ...string) []string {
	return append([]string{"PATH_INFO", pathInfo, "CGIGATE_FORMS", s.forms, "CGIGATE_RECORD", s.record}, kv...)
}

func (s site) post(t *testing.T, pathInfo, body string, kv ...string) answer {
	t.Helper()
	return postCGI(t, "application/x-www-form-urlencoded", body, s.env(pathInfo, kv...)...)
}

// lines is the record's lines.
func (s site) lines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(s.record)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func fromSJIS(t *testing.T, s string) string {
	t.Helper()
	b, err := japanese.ShiftJIS.NewDecoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The renderings, by their Accept header.
var renderings = []struct{ name, accept string }{
	{"HTML", "text/html"}, {"JSON", "application/json"}, {"text", "text/plain"},
}

// A valid contact submission, urlencoded in Shift_JIS without _charset_:
// the declared charset decides.
const validContact = "name=%88%A4%8E%71&email=ada%40example.org&topic=support&message=%88%F3%8D%FC"

func TestTheFormPageIsInTheFormsCharset(t *testing.T) {
	s := newSite(t)
	a := runCGI(t, cgiEnv(s.env("/contact", "SCRIPT_NAME", "/cgi-bin/cgigate")...), nil, strings.NewReader(""))
	if a.status != 200 || a.header.Get("Content-Type") != "text/html; charset=shift_jis" {
		t.Fatalf("status %d Content-Type %q\n%s", a.status, a.header.Get("Content-Type"), a.stderr)
	}
	page := fromSJIS(t, a.body)
	for _, want := range []string{
		`<meta charset="shift_jis">`, `<title>お問い合わせ</title>`, `<h1>お問い合わせ</h1>`,
		`action="/cgi-bin/cgigate/contact" accept-charset="shift_jis"`,
		`<input type="hidden" name="_charset_" value="">`,
		`<label for="f-name">お名前 <span class="req">(required)</span></label>`,
		`<input id="f-email" name="email" type="email" value="" required`,
		`<option>support</option>`, `<textarea id="f-message" name="message" required>`,
		`<div class="hp" aria-hidden="true">`, `name="website" tabindex="-1" autocomplete="off"`,
		`<meta name="viewport"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(a.body, "お問い合わせ") {
		t.Error("the page's Japanese is in UTF-8, not Shift_JIS")
	}
	if len(s.lines(t)) != 0 {
		t.Error("showing the form recorded something")
	}
	t.Run("HEAD of the form's page has its header and no body", func(t *testing.T) {
		a := runCGI(t, cgiEnv(s.env("/contact", "REQUEST_METHOD", "HEAD")...), nil, strings.NewReader(""))
		if a.status != 200 || a.body != "" || a.header.Get("Content-Type") != "text/html; charset=shift_jis" {
			t.Errorf("status %d, body %q, type %q", a.status, a.body, a.header.Get("Content-Type"))
		}
	})
	t.Run("in JSON the page is the empty result with the form's name", func(t *testing.T) {
		a := runCGI(t, cgiEnv(s.env("/contact", acceptJSON, "application/json")...), nil, strings.NewReader(""))
		if r := jsonResult(t, a.body); a.status != 200 || r.Form != "contact" || r.Kind != "empty" {
			t.Errorf("status %d %+v", a.status, r)
		}
	})
}

func TestAValidSubmissionIsRecordedThenRedirected(t *testing.T) {
	for _, rd := range renderings {
		t.Run("in "+rd.name+" it is 303 to exactly the declared redirect", func(t *testing.T) {
			s := newSite(t)
			a := s.post(t, "/contact", validContact, acceptJSON, rd.accept)
			if a.status != 303 || a.header.Get("Location") != "/thanks.html" {
				t.Fatalf("status %d Location %q\n%s\n%s", a.status, a.header.Get("Location"), a.body, a.stderr)
			}
			if len(a.header["Location"]) != 1 {
				t.Errorf("Location %q", a.header["Location"])
			}
			switch rd.name {
			case "HTML":
				if !strings.Contains(a.body, `<a href="/thanks.html">`) {
					t.Errorf("the body does not link to the redirect: %s", a.body)
				}
			case "JSON":
				r := jsonResult(t, a.body)
				if r.Redirect != "/thanks.html" || r.Form != "contact" || r.CharsetSource != "form" || r.Charset != "shift_jis" {
					t.Errorf("%+v", r)
				}
			case "text":
				if !strings.Contains(a.body, "redirect: /thanks.html\n") || !strings.Contains(a.body, "charset: shift_jis (form)") {
					t.Errorf("%s", a.body)
				}
			}
			lines := s.lines(t)
			if len(lines) != 1 {
				t.Fatalf("record %q; want one line", lines)
			}
			var rec record.Record
			if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Form != "contact" || rec.Charset != "shift_jis" || rec.Fields[0].Value != "愛子" || rec.Fields[3].Value != "印刷" {
				t.Errorf("record %+v", rec)
			}
		})
	}
	t.Run("a request cannot choose the redirect", func(t *testing.T) {
		s := newSite(t)
		a := s.post(t, "/contact", validContact, "HTTP_REFERER", "https://evil.example/", "HTTP_ORIGIN", "https://partner.example")
		if loc := a.header.Get("Location"); a.status != 303 || loc != "/thanks.html" {
			t.Errorf("status %d Location %q", a.status, loc)
		}
	})
}

func TestAValidSubmissionWithoutRedirectShowsWhatWasReceived(t *testing.T) {
	for _, rd := range renderings {
		t.Run("in "+rd.name+" it is 200", func(t *testing.T) {
			s := newSite(t)
			a := s.post(t, "/note", "text=Hello+%3Cthere%3E", acceptJSON, rd.accept)
			if a.status != 200 || a.header.Get("Location") != "" {
				t.Fatalf("status %d Location %q\n%s", a.status, a.header.Get("Location"), a.stderr)
			}
			switch rd.name {
			case "HTML":
				for _, want := range []string{"Thank you", "<dt>text</dt><dd>Hello &lt;there&gt;</dd>"} {
					if !strings.Contains(a.body, want) {
						t.Errorf("the page lacks %q:\n%s", want, a.body)
					}
				}
			case "JSON":
				if r := jsonResult(t, a.body); r.Form != "note" || r.Fields[0].Value != "Hello <there>" {
					t.Errorf("%+v", r)
				}
			case "text":
				if !strings.Contains(a.body, `field (body): "text" = "Hello <there>"`) {
					t.Errorf("%s", a.body)
				}
			}
			if len(s.lines(t)) != 1 {
				t.Errorf("record %q", s.lines(t))
			}
		})
	}
}

func TestAnInvalidSubmissionIs422WithEveryProblem(t *testing.T) {
	body := "name=" + strings.Repeat("%88%A4", 21) + "&email=nope&topic=refund&message=&extra=1"
	want := map[string]string{
		"name": "Use at most 20 characters (this has 21).", "email": "Please give an address we can answer.",
		"topic": "Choose one of: order, support, other.", "message": "Please fill in this field.", "extra": "This is not a field of this form.",
	}
	for _, rd := range renderings {
		t.Run("in "+rd.name+" every failing field is named and nothing is recorded", func(t *testing.T) {
			s := newSite(t)
			a := s.post(t, "/contact", body, acceptJSON, rd.accept)
			if a.status != 422 {
				t.Fatalf("status %d\n%s", a.status, a.body)
			}
			switch rd.name {
			case "HTML":
				if a.header.Get("Content-Type") != "text/html; charset=shift_jis" {
					t.Errorf("Content-Type %q", a.header.Get("Content-Type"))
				}
				page := fromSJIS(t, a.body)
				for name, msg := range want {
					if name != "extra" && !strings.Contains(page, `<p class="problem" id="p-`+name+`">`+htmlEscape(msg)+`</p>`) {
						t.Errorf("no message beside %s", name)
					}
					if !strings.Contains(page, htmlEscape(msg)) {
						t.Errorf("the summary lacks %q", msg)
					}
				}
				for _, kept := range []string{`value="` + strings.Repeat("愛", 21) + `"`, `value="nope"`} {
					if !strings.Contains(page, kept) {
						t.Errorf("the value %s was not kept", kept)
					}
				}
				if !strings.Contains(page, `aria-invalid="true" aria-describedby="p-email"`) {
					t.Error("the invalid input does not point at its message")
				}
			case "JSON":
				var e struct {
					Error    string
					Status   int
					Problems []struct{ Name, Problem string }
				}
				if err := json.Unmarshal([]byte(a.body), &e); err != nil {
					t.Fatal(err)
				}
				got := map[string]string{}
				for _, p := range e.Problems {
					got[p.Name] = p.Problem
				}
				if e.Status != 422 || e.Error == "" || len(got) != len(want) {
					t.Errorf("%s", a.body)
				}
				for k, v := range want {
					if got[k] != v {
						t.Errorf("%s: %q; want %q", k, got[k], v)
					}
				}
			case "text":
				for name, msg := range want {
					if !strings.Contains(a.body, `problem: "`+name+`": "`+msg+`"`) {
						t.Errorf("no line for %s:\n%s", name, a.body)
					}
				}
			}
			if len(s.lines(t)) != 0 {
				t.Errorf("recorded %q", s.lines(t))
			}
			if n := strings.Count(a.stderr, "\n"); n != 1 || !strings.Contains(a.stderr, "422") {
				t.Errorf("error log %q; want one line", a.stderr)
			}
		})
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

func TestACrossSiteSubmissionIs403AndNotRecorded(t *testing.T) {
	tests := []struct {
		name string
		kv   []string
		ok   bool
	}{
		{"another origin", []string{"HTTP_ORIGIN", "https://evil.example"}, false},
		{"the opaque origin null", []string{"HTTP_ORIGIN", "null"}, false},
		{"no Origin with Sec-Fetch-Site cross-site", []string{"HTTP_SEC_FETCH_SITE", "cross-site"}, false},
		{"the gateway's own host over http when the request came by https", []string{"HTTPS", "on", "HTTP_ORIGIN", "http://example.org"}, false},
		{"the gateway's own origin", []string{"HTTP_ORIGIN", "http://example.org"}, true},
		{"the gateway's own origin over https", []string{"HTTPS", "on", "HTTP_ORIGIN", "https://example.org"}, true},
		{"an origin the form lists", []string{"HTTP_ORIGIN", "https://partner.example"}, true},
		{"neither header", nil, true},
	}
	for _, tt := range tests {
		for _, rd := range renderings {
			t.Run(tt.name+" in "+rd.name, func(t *testing.T) {
				s := newSite(t)
				a := s.post(t, "/contact", validContact, append([]string{acceptJSON, rd.accept}, tt.kv...)...)
				if tt.ok {
					if a.status != 303 || len(s.lines(t)) != 1 {
						t.Errorf("status %d, record %q", a.status, s.lines(t))
					}
					return
				}
				if a.status != 403 || len(s.lines(t)) != 0 {
					t.Errorf("status %d, record %q", a.status, s.lines(t))
				}
				if rd.name == "JSON" {
					if msg, st := jsonError(t, a.body); st != 403 || !strings.Contains(msg, "cross-site") {
						t.Errorf("%s", a.body)
					}
				}
				if rd.name == "HTML" && !strings.Contains(a.body, "Nothing you sent was saved.") {
					t.Errorf("the page does not tell the visitor: %s", a.body)
				}
				if strings.Count(a.stderr, "\n") != 1 || !strings.Contains(a.stderr, "cgigate: 403: ") {
					t.Errorf("error log %q; want one line", a.stderr)
				}
			})
		}
	}
}

func TestAFilledHoneypotIsAnsweredAsASuccessAndNotRecorded(t *testing.T) {
	for _, rd := range renderings {
		t.Run("in "+rd.name+", even with other problems", func(t *testing.T) {
			s := newSite(t)
			good := s.post(t, "/contact", validContact, acceptJSON, rd.accept)
			os.Remove(s.record)
			a := s.post(t, "/contact", "name=&email=bad&website=http%3A%2F%2Fspam.example", acceptJSON, rd.accept)
			if a.status != good.status || a.header.Get("Location") != good.header.Get("Location") {
				t.Errorf("status %d Location %q; a person gets %d %q", a.status, a.header.Get("Location"), good.status, good.header.Get("Location"))
			}
			if rd.name == "HTML" && a.body != good.body {
				t.Errorf("the body differs from a person's:\n%s\n%s", a.body, good.body)
			}
			if len(s.lines(t)) != 0 {
				t.Errorf("recorded %q", s.lines(t))
			}
			if !strings.Contains(a.stderr, `honeypot "website" filled`) {
				t.Errorf("error log %q", a.stderr)
			}
		})
	}
}

func TestAMethodTheFormDoesNotTakeIs405WithAllow(t *testing.T) {
	tests := []struct {
		name, path, method, query, allow string
	}{
		{"PUT to a POST form", "/contact", "PUT", "", "GET, HEAD, POST"},
		{"a GET submission to a POST form", "/contact", "GET", "name=x", "GET, HEAD, POST"},
		{"POST to a GET form", "/lookup", "POST", "", "GET, HEAD"},
		{"DELETE to a GET form", "/lookup", "DELETE", "", "GET, HEAD"},
	}
	for _, tt := range tests {
		for _, rd := range renderings {
			t.Run(tt.name+" in "+rd.name, func(t *testing.T) {
				s := newSite(t)
				a := runCGI(t, cgiEnv(s.env(tt.path, "REQUEST_METHOD", tt.method, "QUERY_STRING", tt.query, acceptJSON, rd.accept)...), nil, strings.NewReader(""))
				if a.status != 405 || a.header.Get("Allow") != tt.allow {
					t.Errorf("status %d Allow %q; want 405 %q", a.status, a.header.Get("Allow"), tt.allow)
				}
				if strings.Count(a.stderr, "\n") != 1 {
					t.Errorf("error log %q; want one line", a.stderr)
				}
			})
		}
	}
}

func TestHEADNeverRecords(t *testing.T) {
	s := newSite(t)
	t.Run("a declared GET form's submission by HEAD is answered and not recorded", func(t *testing.T) {
		get := runCGI(t, cgiEnv(s.env("/lookup", "QUERY_STRING", "q=x")...), nil, strings.NewReader(""))
		head := runCGI(t, cgiEnv(s.env("/lookup", "QUERY_STRING", "q=x", "REQUEST_METHOD", "HEAD")...), nil, strings.NewReader(""))
		if get.status != 200 || head.status != 200 || head.body != "" {
			t.Errorf("GET %d, HEAD %d %q", get.status, head.status, head.body)
		}
		if lines := s.lines(t); len(lines) != 1 {
			t.Errorf("record %q; want the GET's line only", lines)
		}
	})
	t.Run("an undeclared form by HEAD is not recorded", func(t *testing.T) {
		rec := filepath.Join(t.TempDir(), "r.jsonl")
		a := get(t, "a=1", "REQUEST_METHOD", "HEAD", "CGIGATE_RECORD", rec)
		if _, err := os.Stat(rec); a.status != 200 || !os.IsNotExist(err) {
			t.Errorf("status %d, record file: %v", a.status, err)
		}
	})
}

func TestAddressesThatNameNoForm(t *testing.T) {
	s := newSite(t)
	for _, tt := range []struct {
		name string
		kv   []string
	}{
		{"an unknown name is 404", s.env("/nope")},
		{"a path under a form is 404", s.env("/contact/x")},
		{"a path with no forms file is 404", []string{"PATH_INFO", "/contact"}},
	} {
		for _, rd := range renderings {
			t.Run(tt.name+" in "+rd.name, func(t *testing.T) {
				a := get(t, "", append(tt.kv, acceptJSON, rd.accept)...)
				if a.status != 404 || strings.Count(a.stderr, "\n") != 1 {
					t.Errorf("status %d, error log %q", a.status, a.stderr)
				}
			})
		}
	}
	t.Run("the gateway itself answers as before with forms declared", func(t *testing.T) {
		a := get(t, "a=1", "CGIGATE_FORMS", s.forms, acceptJSON, "application/json")
		if r := jsonResult(t, a.body); a.status != 200 || r.Form != "" || strings.Contains(a.body, `"form":`) {
			t.Errorf("status %d %s", a.status, a.body)
		}
	})
}

func TestABadFormsFileIsA500ForEveryRequest(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "forms.yaml")
	os.WriteFile(bad, []byte("forms:\n  contact:\n    fields:\n      age: {kind: numbr}\n"), 0o644)
	for _, tt := range []struct{ name, pathInfo, query string }{
		{"a form's address", "/contact", ""}, {"the gateway's prompt", "", ""}, {"an undeclared form", "", "a=1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := get(t, tt.query, "PATH_INFO", tt.pathInfo, "CGIGATE_FORMS", bad, acceptJSON, "application/json")
			msg, st := jsonError(t, a.body)
			if a.status != 500 || st != 500 || strings.Contains(msg, "numbr") {
				t.Errorf("status %d %s", a.status, a.body)
			}
			if !strings.Contains(a.stderr, bad+`:4: forms.contact.fields.age.kind: unknown kind "numbr"`) {
				t.Errorf("error log %q lacks the file, line and key", a.stderr)
			}
		})
	}
}

// Without CGIGATE_FORMS a request reads no forms file: the gateway's
// forms are never loaded (declared would fail on an empty path).
func TestWithoutCGIGATE_FORMSNothingIsRead(t *testing.T) {
	for _, q := range []string{"a=1", "", "foo+bar"} {
		t.Run("the query "+strconv.Quote(q)+" loads no forms", func(t *testing.T) {
			g := newGateway(config{}, nil)
			var out bytes.Buffer
			env := cgiEnv("QUERY_STRING", q)
			if err := cgi.ServeEnv(g, cgi.Limits{}, env, nil, strings.NewReader(""), &out); err != nil {
				t.Fatal(err)
			}
			if g.forms.set != nil || g.forms.err != nil || !strings.HasPrefix(out.String(), "Status: 200") {
				t.Errorf("forms %v %v; answer %.40q", g.forms.set, g.forms.err, out.String())
			}
		})
	}
}
