package browsertest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/browsertest"
)

// sjisPage is an ASCII-only page whose declared charset makes Chromium
// encode the form's data as Shift_JIS and fill _charset_ with its name.
const sjisPage = `<!doctype html>
<html><head><meta charset=Shift_JIS><title>Shift_JIS search</title></head>
<body>
<form method=GET action="/cgi-bin/echo">
<input type=hidden name=_charset_>
<input id=q name=q>
<input type=submit>
</form>
</body></html>
`

type formCase struct {
	Name  string `json:"name"`
	Text  string `json:"text"`
	Query string `json:"query"`
}

func TestChromiumSendsShiftJISFormBytesThroughApache(t *testing.T) {
	data, err := os.ReadFile("testdata/shift_jis_form.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []formCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	s := apachetest.Start(t, apachetest.Options{
		CGI:   map[string]string{"echo": apachetest.EchoCGI(t)},
		Files: map[string][]byte{"sjis/index.html": []byte(sjisPage)},
	})
	tab := browsertest.Start(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			loc := browsertest.SubmitForm(t, tab, s.URL+"/sjis/", "#q", c.Text)
			u, err := url.Parse(loc)
			if err != nil {
				t.Fatalf("location %q: %v", loc, err)
			}
			if u.RawQuery != c.Query {
				t.Errorf("Chromium requested ?%s, want ?%s (Python's codecs)", u.RawQuery, c.Query)
			}
			var rep apachetest.EchoReport
			if body := browsertest.BodyText(t, tab); json.Unmarshal([]byte(body), &rep) != nil {
				t.Fatalf("the CGI's answer is not JSON: %q\n%s", body, s.ErrorLog())
			}
			if rep.QueryString != c.Query {
				t.Errorf("QUERY_STRING = %s, want %s (Python's codecs)", rep.QueryString, c.Query)
			}
			if len(rep.Args) != 0 {
				t.Errorf("argv[1:] = %q, want none for a form query", rep.Args)
			}
		})
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
