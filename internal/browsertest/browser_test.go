package browsertest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"os"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/browsertest"
)

// formPage is an ASCII-only page whose declared charset makes Chromium
// encode the form's data in that charset and fill _charset_ with its name.
const formPage = `<!doctype html>
<html><head><meta charset=%s><title>form</title></head>
<body>
<form method=%s enctype=%s action="/cgi-bin/echo">
<input type=hidden name=_charset_>
<input id=q name=q>
<input type=submit>
</form>
</body></html>
`

// formCase is one line of testdata/form_charsets.json, written by
// testdata/gen_form_charsets.py from Python's codecs.
type formCase struct {
	Charset     string `json:"charset"`
	CharsetName string `json:"charset_name"`
	Name        string `json:"name"`
	Text        string `json:"text"`
	Raw         []byte `json:"raw"`
	Query       string `json:"query"`
}

var formKinds = []struct{ name, method, enctype string }{
	{"get", "GET", "application/x-www-form-urlencoded"},
	{"post", "POST", "application/x-www-form-urlencoded"},
	{"multipart", "POST", "multipart/form-data"},
}

func TestChromiumSendsLegacyCharsetFormBytesThroughApache(t *testing.T) {
	data, err := os.ReadFile("testdata/form_charsets.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []formCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	pages := map[string][]byte{}
	for _, c := range cases {
		for _, k := range formKinds {
			pages[c.Charset+"/"+k.name+".html"] = []byte(fmt.Sprintf(formPage, c.Charset, k.method, k.enctype))
		}
	}
	s := apachetest.Start(t, apachetest.Options{
		CGI:   map[string]string{"echo": apachetest.EchoCGI(t)},
		Files: pages,
	})
	tab := browsertest.Start(t)
	for _, c := range cases {
		t.Run(c.Charset+"/"+c.Name, func(t *testing.T) {
			page := s.URL + "/" + c.Charset + "/"
			t.Run("a GET form sends the bytes as the query", func(t *testing.T) {
				loc := browsertest.SubmitForm(t, tab, page+"get.html", "#q", c.Text)
				u, err := url.Parse(loc)
				if err != nil {
					t.Fatalf("location %q: %v", loc, err)
				}
				if u.RawQuery != c.Query {
					t.Errorf("Chromium requested ?%s, want ?%s (Python's codecs)", u.RawQuery, c.Query)
				}
				rep := report(t, s, tab)
				if rep.QueryString != c.Query {
					t.Errorf("QUERY_STRING = %s, want %s (Python's codecs)", rep.QueryString, c.Query)
				}
				if len(rep.Args) != 0 {
					t.Errorf("argv[1:] = %q, want none for a form query", rep.Args)
				}
			})
			t.Run("a POST form sends the same bytes as the body", func(t *testing.T) {
				browsertest.SubmitForm(t, tab, page+"post.html", "#q", c.Text)
				rep := report(t, s, tab)
				if string(rep.Body) != c.Query {
					t.Errorf("body = %s, want %s (Python's codecs)", rep.Body, c.Query)
				}
				if ct := rep.Env["CONTENT_TYPE"]; ct != "application/x-www-form-urlencoded" {
					t.Errorf("CONTENT_TYPE = %q, want application/x-www-form-urlencoded with no charset", ct)
				}
			})
			t.Run("a multipart form sends the raw bytes in the part", func(t *testing.T) {
				browsertest.SubmitForm(t, tab, page+"multipart.html", "#q", c.Text)
				rep := report(t, s, tab)
				parts := multipartFields(t, rep)
				if got := parts["_charset_"]; got != c.CharsetName {
					t.Errorf("_charset_ part = %q, want %q", got, c.CharsetName)
				}
				if got := parts["q"]; got != string(c.Raw) {
					t.Errorf("q part = %q, want %q (Python's codecs)", got, c.Raw)
				}
			})
		})
	}
}

// report reads the echo CGI's answer from the page the browser shows.
func report(t *testing.T, s *apachetest.Server, tab context.Context) apachetest.EchoReport {
	t.Helper()
	var rep apachetest.EchoReport
	if body := browsertest.BodyText(t, tab); json.Unmarshal([]byte(body), &rep) != nil {
		t.Fatalf("the CGI's answer is not JSON: %q\n%s", body, s.ErrorLog())
	}
	return rep
}

// multipartFields parses the body the echo CGI received as
// multipart/form-data (RFC 7578) and returns each field's bytes.
func multipartFields(t *testing.T, rep apachetest.EchoReport) map[string]string {
	t.Helper()
	mt, params, err := mime.ParseMediaType(rep.Env["CONTENT_TYPE"])
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("CONTENT_TYPE = %q (%v), want multipart/form-data", rep.Env["CONTENT_TYPE"], err)
	}
	r := multipart.NewReader(bytes.NewReader(rep.Body), params["boundary"])
	fields := map[string]string{}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return fields
		}
		if err != nil {
			t.Fatalf("multipart body %q: %v", rep.Body, err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		fields[p.FormName()] = string(b)
	}
}

func TestFindChromium(t *testing.T) {
	tests := []struct {
		name   string
		env    string
		files  []string
		onPath map[string]string
		want   string
		err    bool
	}{
		{name: "CHROMIUM_BIN wins", env: "/opt/chrome/chrome", files: []string{"/opt/chrome/chrome", "/usr/bin/chromium"}, want: "/opt/chrome/chrome"},
		{name: "a CHROMIUM_BIN that does not exist is an error", env: "/nope", files: []string{"/usr/bin/chromium"}, err: true},
		{name: "Debian's /usr/bin/chromium comes before PATH", files: []string{"/usr/bin/chromium"},
			onPath: map[string]string{"chromium": "/snap/bin/chromium"}, want: "/usr/bin/chromium"},
		{name: "chromium-browser on PATH is found", onPath: map[string]string{"chromium-browser": "/usr/lib/chromium-browser"},
			want: "/usr/lib/chromium-browser"},
		{name: "nothing installed is ErrNoChromium", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exists := func(p string) bool {
				for _, f := range tt.files {
					if f == p {
						return true
					}
				}
				return false
			}
			look := func(n string) (string, error) {
				if p, ok := tt.onPath[n]; ok {
					return p, nil
				}
				return "", fmt.Errorf("%s not on PATH", n)
			}
			got, err := browsertest.FindChromium(func(string) string { return tt.env }, look, exists)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("FindChromium = %q, %v; want %q, error %v", got, err, tt.want, tt.err)
			}
		})
	}
}

func ExampleFindChromium() {
	bin, err := browsertest.FindChromium(
		func(string) string { return "" },
		func(string) (string, error) { return "", fmt.Errorf("no PATH") },
		func(p string) bool { return p == "/usr/bin/chromium" })
	fmt.Println(bin, err)
	// Output: /usr/bin/chromium <nil>
}
