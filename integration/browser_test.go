package integration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/browsertest"
)

// browserPage is an ASCII-only page whose <meta charset> makes the browser
// encode the form's data in that charset (WHATWG HTML 4.10.21.3, the
// form's encoding is the document's) and fill _charset_ with its name.
const browserPage = `<!doctype html>
<html><head><meta charset=%s><title>%s %s form</title></head>
<body>
<form method=%s enctype=%s action="/cgi-bin/cgigate">
<input type=hidden name=_charset_>
<input id=q name=q size=40>
<input type=submit>
</form>
</body></html>
`

// pageCharset is a page's declared charset, the name the browser puts in
// _charset_ and the gateway's WHATWG name for it, and what to type: some
// non-ASCII text and (but for UTF-8) one character the charset lacks.
type pageCharset struct {
	label, fieldName, whatwg string
	text                     string
	missing                  rune // 0: the charset encodes every character of text
}

var pageCharsets = []pageCharset{
	{"EUC-JP", "EUC-JP", "euc-jp", "日本語のテキスト ｶﾀｶﾅ", '한'},
	{"Shift_JIS", "Shift_JIS", "shift_jis", "ソ表示 テスト", '한'},
	{"windows-1251", "windows-1251", "windows-1251", "Привет, мир", '印'},
	{"UTF-8", "UTF-8", "utf-8", "Grüße 印刷 한국어 Привет a&b=c+d%25", 0},
}

var formKinds = []struct{ name, method, enctype string }{
	{"get", "GET", "application/x-www-form-urlencoded"},
	{"post", "POST", "application/x-www-form-urlencoded"},
	{"multipart", "POST", "multipart/form-data"},
}

// browserBound caps one browser step; it is not an assertion about speed.
const browserBound = 60 * time.Second

// run runs actions in the tab under browserBound.
func run[T any](t *testing.T, tab context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, browserBound)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %s: %v", what, err)
	}
	return v
}

// renderedFields reads the fields of the gateway's HTML result page as the
// browser shows them: each name and source from the technical details'
// list, and each value from the list a visitor reads (which leaves out
// _charset_; its value is then the one in the details' charset line).
func renderedFields(t *testing.T, tab context.Context) []field {
	t.Helper()
	sources := run(t, tab, "reading the fields' sources", chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("details ul.sources li"), li => li.textContent)`))
	shown := run(t, tab, "reading the fields shown", chromedp.Evaluate[[][]string](
		`Array.from(document.querySelectorAll("dl.received")[0]?.querySelectorAll("dt") ?? [], dt => [dt.textContent, dt.nextElementSibling.textContent])`))
	var out []field
	for _, s := range sources {
		name, source, ok := strings.Cut(s, " from the ")
		if !ok {
			t.Fatalf("a source line %q", s)
		}
		f := field{Name: name, Source: source}
		if name == "_charset_" {
			f.Value = "(hidden)"
		} else {
			if len(shown) == 0 || shown[0][0] != name {
				t.Fatalf("the page shows %q where the details list %q", shown, sources)
			}
			f.Value, shown = shown[0][1], shown[1:]
		}
		out = append(out, f)
	}
	return out
}

// screenshot saves the tab's page as artifacts/NAME.png at the project
// root (gitignored), for a person to look at.
func screenshot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	png := run(t, tab, "taking a screenshot", chromedp.FullScreenshot(100))
	dir := filepath.Join("..", "artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// TestBrowserFormsInLegacyCharsetsThroughApache loads pages in EUC-JP,
// Shift_JIS, windows-1251 and UTF-8 from Apache's DocumentRoot in headless
// Chromium, types text into each form (GET, POST urlencoded, POST
// multipart), submits it to the gateway and reads the value back from the
// gateway's HTML page. A character the page's charset cannot encode is sent
// by the browser as "&#NNNN;": with SetEnv CGIGATE_NCR 1 the gateway shows
// the character, without it the literal reference.
func TestBrowserFormsInLegacyCharsetsThroughApache(t *testing.T) {
	pages := map[string][]byte{}
	for _, c := range pageCharsets {
		for _, k := range formKinds {
			pages[c.label+"/"+k.name+".html"] = fmt.Appendf(nil, browserPage, c.label, c.label, k.name, k.method, k.enctype)
		}
	}
	servers := []struct {
		name string
		ncr  bool
		s    *apachetest.Server
	}{
		{name: "without CGIGATE_NCR"},
		{name: "with CGIGATE_NCR=1", ncr: true},
	}
	for i := range servers {
		opts := apachetest.Options{Files: pages}
		if servers[i].ncr {
			opts.Env = map[string]string{"CGIGATE_NCR": "1"}
		}
		servers[i].s = startGateway(t, opts)
	}
	tab := browsertest.Start(t)

	for _, c := range pageCharsets {
		for _, k := range formKinds {
			for _, sv := range servers {
				typed := c.text
				if c.missing != 0 {
					typed += " " + string(c.missing)
				}
				want := typed
				if c.missing != 0 && !sv.ncr {
					want = c.text + fmt.Sprintf(" &#%d;", c.missing)
				}
				name := fmt.Sprintf("a %s %s form shows what was typed %s", c.label, k.name, sv.name)
				t.Run(name, func(t *testing.T) {
					s := sv.s
					loc := browsertest.SubmitForm(t, tab, s.URL+"/"+c.label+"/"+k.name+".html", "#q", typed)
					got := renderedFields(t, tab)
					source := "body"
					if k.method == "GET" {
						source = "query"
					}
					wantFields := []field{{"_charset_", c.fieldName, source}, {"q", want, source}}
					if shown := []field{{"_charset_", "(hidden)", source}, {"q", want, source}}; !slices.Equal(got, shown) {
						t.Errorf("the page shows fields %q, want %q", got, shown)
					}
					info := run(t, tab, "reading the charset line", chromedp.Evaluate[string](`document.querySelector("details p").textContent`))
					if w := fmt.Sprintf("charset %s (_charset_)", c.whatwg); !strings.Contains(info, w) {
						t.Errorf("the page says %q, want it to contain %q", info, w)
					}
					if k.method == "GET" {
						u, err := url.Parse(loc)
						if err != nil {
							t.Fatal(err)
						}
						r := getJSON(t, s, u.RequestURI())
						if r.Charset != c.whatwg || r.CharsetSource != "_charset_" || !slices.Equal(r.Fields, wantFields) {
							t.Errorf("the same query as JSON: charset %q (%s) fields %q, want %s (_charset_) %q",
								r.Charset, r.CharsetSource, r.Fields, c.whatwg, wantFields)
						}
					}
					if c.label == "EUC-JP" && k.name == "multipart" && sv.ncr {
						screenshot(t, tab, "results-euc-jp-multipart")
					}
				})
			}
		}
	}
}

// uploadPage is a Shift_JIS page with a multipart form holding a file.
const uploadPage = `<!doctype html>
<html><head><meta charset=Shift_JIS><title>upload</title></head>
<body>
<form method=POST enctype=multipart/form-data action="/cgi-bin/cgigate">
<input type=hidden name=_charset_>
<input id=q name=q>
<input id=f type=file name=upload>
<input type=submit>
</form>
</body></html>
`

// TestBrowserUploadsAFileWithAShiftJISName has Chromium upload a file
// whose name is Japanese from a Shift_JIS page. The browser writes the
// filename parameter in the form's encoding, with only '"', CR and LF
// percent-escaped (WHATWG HTML 4.10.21.8, multipart/form-data encoding),
// so a Shift_JIS trail byte 0x5C (the '\' of ASCII, as in 表 = 95 5C) is
// sent as it is and must not be read as a quoted-pair escape.
func TestBrowserUploadsAFileWithAShiftJISName(t *testing.T) {
	s := startGateway(t, apachetest.Options{Files: map[string][]byte{"upload.html": []byte(uploadPage)}})
	tab := browsertest.Start(t)
	tests := []struct{ name, filename string }{
		{"a name without 0x5C bytes arrives as typed", "報告書.txt"},
		{"a name with a 0x5C trail byte (表) arrives as typed", "表示テスト.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := []byte("cgigate upload test: " + tt.filename + "\n")
			path := filepath.Join(t.TempDir(), tt.filename)
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			run(t, tab, "filling the upload form", chromedp.Steps(
				chromedp.Navigate(s.URL+"/upload.html"),
				chromedp.SetUploadFiles(chromedp.CSS("#f"), []string{path}),
				chromedp.SendKeys(chromedp.CSS("#q"), "送信")))
			run(t, tab, "submitting", chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Submit(chromedp.CSS("#q"))))
			rows := run(t, tab, "reading the files", chromedp.Evaluate[[]string](
				`Array.from(document.querySelectorAll("dl.received")[1].children, e => e.textContent).concat(Array.from(document.querySelectorAll("details ul.files li"), li => li.textContent))`))
			sum := sha256.Sum256(content)
			want := []string{"upload", fmt.Sprintf("%s (%d bytes)", tt.filename, len(content)), "upload: text/plain, sha256 " + hex.EncodeToString(sum[:])}
			if !slices.Equal(rows, want) {
				t.Errorf("the page shows files %q, want %q", rows, want)
			}
			if got := renderedFields(t, tab); !slices.Equal(got, []field{{"_charset_", "(hidden)", "body"}, {"q", "送信", "body"}}) {
				t.Errorf("the page shows fields %q", got)
			}
		})
	}
}

// TestBrowserISINDEXPrompt opens the gateway's prompt page (no query) in
// Chromium, types two words and presses Enter: the page's script (allowed
// by its Content-Security-Policy hash) must send a real ISINDEX query (the
// words joined by "+", no "="), and the results page must list both words
// as keywords. With script off, the form's own submission must lead to
// the same keywords.
func TestBrowserISINDEXPrompt(t *testing.T) {
	s := startGateway(t, apachetest.Options{})
	tab := browsertest.Start(t)
	words := []string{"gateway", "印刷"}

	for _, script := range []bool{true, false} {
		name := "with script, the prompt sends a real ISINDEX query"
		if !script {
			name = "without script, the prompt's form sends isindex=WORDS, taken as the keywords"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(tab, browserBound)
			defer cancel()
			if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !script}); err != nil {
				t.Fatal(err)
			}
			run(t, tab, "opening the prompt and typing", chromedp.Steps(
				chromedp.Navigate(s.URL+gatewayPath),
				chromedp.SendKeys(chromedp.CSS("#q"), strings.Join(words, " "))))
			run(t, tab, "pressing Enter", chromedp.WaitEvent(page.LoadEventFired, nil,
				chromedp.SendKeys(chromedp.CSS("#q"), kb.Enter)))
			loc := run(t, tab, "reading the location", chromedp.Location())

			u, err := url.Parse(loc)
			if err != nil {
				t.Fatal(err)
			}
			if u.Path != gatewayPath || u.RawQuery == "" {
				t.Fatalf("the browser went to %s, want %s with a query", loc, gatewayPath)
			}
			if script && strings.Contains(u.RawQuery, "=") {
				t.Errorf("the browser went to %s, want an ISINDEX query (words joined by +, no '=')", loc)
			}
			if !script && !strings.HasPrefix(u.RawQuery, "isindex=") {
				t.Errorf("the browser went to %s, want the no-script form's ?isindex=", loc)
			}
			h1 := run(t, tab, "reading the heading", chromedp.Evaluate[string](`document.querySelector("h1").textContent`))
			shown := run(t, tab, "reading the keywords", chromedp.Evaluate[[]string](
				`Array.from(document.querySelectorAll("strong.keyword"), k => k.textContent)`))
			if h1 != "Search results" || !slices.Equal(shown, words) {
				t.Errorf("the results page is %q with keywords %q, want Search results with %q", h1, shown, words)
			}
			if script {
				screenshot(t, tab, "results-isindex")
			}
			r := getJSON(t, s, u.RequestURI())
			if r.Kind != "isindex" || !slices.Equal(r.Keywords, words) || len(r.Fields) != 0 {
				t.Errorf("the same query as JSON: kind %q keywords %q fields %v, want isindex %q and no fields", r.Kind, r.Keywords, r.Fields, words)
			}
		})
	}
}
