package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/testdocs"
	"github.com/cgigate/cgigate/search"
)

// makeIndex writes docs (path -> content) into a new folder.
func makeIndex(t *testing.T, docs map[string]string) string { return testdocs.Folder(t, docs) }

func TestSearch(t *testing.T) {
	dir := makeIndex(t, map[string]string{
		"katakana.txt":            "印刷の手順: インサツ を 開始 します。",
		"street.html":             "<html><head><title>Die Straße</title></head><body><p>Eine Straße in Berlin. Printing here.</p></body></html>",
		"streets.txt":             "Straße, Straße, Straße and more straße, STRASSE.",
		"scripted.html":           "<title>Only script</title><script>var s = 'Berlin STRASSE';</script><style>.Berlin{}</style><p>nothing</p>",
		"sub/nested.html":         "<title>Nested &amp; deep</title><p>Berlin printing press</p>",
		"notes.md":                "Straße in a file of another kind",
		"latin1.txt":              "Gr\xf6\xdfe und Qualit\xe4t: sch\xf6ne B\xfccher f\xfcr Sie",
		"javascript:alert(1).txt": "a Berlin document with a hostile file name",
		"markup.txt":              "<script>alert(1)</script> Ünïcode Markup",
	})
	t.Run("without an index, the documents are scanned", func(t *testing.T) { searchCases(t, dir) })
	buildWithBinary(t, dir)
	t.Run("with an index from cgigate -index, the same answers", func(t *testing.T) { searchCases(t, dir) })
}

// buildWithBinary runs "cgigate -index dir".
func buildWithBinary(t *testing.T, dir string) {
	t.Helper()
	out, err := execCommand("-index", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("cgigate -index: %v\n%s", err, out)
	}
}

// searchCases are the search's answers for the documents of TestSearch.
func searchCases(t *testing.T, dir string) {
	for _, tc := range []struct {
		name  string
		query string
		want  []string // URLs, in rank order
	}{
		{"half-width katakana finds full-width katakana", "%EF%BD%B2%EF%BE%9D%EF%BD%BB%EF%BE%82", []string{"katakana.txt"}},
		{"STRASSE finds Straße by full case folding, ranked by occurrences", "STRASSE", []string{"streets.txt", "street.html"}},
		{"every word must match", "STRASSE+printing", []string{"street.html"}},
		{"text in script and style does not count", "berlin", []string{"./javascript:alert%281%29.txt", "street.html", "sub/nested.html"}},
		{"a word nobody has finds nothing", "zzyzx", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := get(t, tc.query, "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json")
			if a.stderr != "" {
				t.Errorf("stderr %q", a.stderr)
			}
			r := jsonResult(t, a.body)
			var urls []string
			for _, res := range r.Results {
				urls = append(urls, res.URL)
			}
			if !equal(urls, tc.want) {
				t.Errorf("results %q; want %q (%+v)", urls, tc.want, r.Results)
			}
		})
	}
	t.Run("an HTML title is the result's title, a text file's first line that is not blank", func(t *testing.T) {
		r := jsonResult(t, get(t, "berlin", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json").body)
		titles := map[string]string{}
		for _, res := range r.Results {
			titles[res.URL] = res.Title
		}
		if titles["street.html"] != "Die Straße" || titles["sub/nested.html"] != "Nested & deep" || titles["./javascript:alert%281%29.txt"] != "a Berlin document with a hostile file name" {
			t.Errorf("titles %q", titles)
		}
	})
	t.Run("a snippet is around the match and escaped in HTML", func(t *testing.T) {
		a := get(t, "markup", "CGIGATE_INDEX_DIR", dir)
		if strings.Contains(a.body, "<script>alert(1)") || !strings.Contains(a.body, "&lt;script&gt;alert(1)&lt;/script&gt; Ünïcode Markup") {
			t.Errorf("body:\n%s", a.body)
		}
		r := jsonResult(t, get(t, "markup", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json").body)
		if len(r.Results) != 1 || r.Results[0].Snippet != "<script>alert(1)</script> Ünïcode Markup" {
			t.Errorf("results %+v", r.Results)
		}
	})
	t.Run("a Latin-1 document is read in its charset, with no warning", func(t *testing.T) {
		a := get(t, "GRÖSSE+bücher", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json")
		r := jsonResult(t, a.body)
		if len(r.Results) != 1 || r.Results[0].URL != "latin1.txt" || len(r.Warnings) != 0 || a.stderr != "" {
			t.Errorf("results %+v warnings %q stderr %q", r.Results, r.Warnings, a.stderr)
		}
	})
	t.Run("a hostile file name is never a javascript: link", func(t *testing.T) {
		a := get(t, "hostile", "CGIGATE_INDEX_DIR", dir, "CGIGATE_INDEX_URL", "/docs")
		if strings.Contains(a.body, `href="javascript:`) || !strings.Contains(a.body, `href="/docs/javascript:alert%281%29.txt"`) {
			t.Errorf("body:\n%s", a.body)
		}
		r := jsonResult(t, get(t, "hostile", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json").body)
		if len(r.Results) != 1 || r.Results[0].URL != "./javascript:alert%281%29.txt" {
			t.Errorf("without CGIGATE_INDEX_URL, JSON keeps the relative path: %+v", r.Results)
		}
	})
	t.Run("without CGIGATE_INDEX_URL, titles are not links and a note says why", func(t *testing.T) {
		a := get(t, "hostile", "CGIGATE_INDEX_DIR", dir)
		if strings.Contains(a.body, "javascript:alert(1).txt") || strings.Contains(a.body, "<a ") || !strings.Contains(a.body, "Links to the documents are not configured") {
			t.Errorf("body:\n%s", a.body)
		}
	})
	t.Run("a missing index folder is a 500 with the reason on stderr", func(t *testing.T) {
		missing := filepath.Join(dir, "no-such-folder")
		a := get(t, "berlin", "CGIGATE_INDEX_DIR", missing, acceptJSON, "application/json")
		msg, _ := jsonError(t, a.body)
		if a.status != 500 || strings.Contains(msg, "no-such-folder") || !strings.Contains(a.stderr, "no-such-folder") {
			t.Errorf("status %d message %q stderr %q", a.status, msg, a.stderr)
		}
	})
}

func TestIndexCommand(t *testing.T) {
	dir := makeIndex(t, map[string]string{"a.txt": "alpha", "b/c.html": "<title>Gamma</title><p>alpha beta</p>", "big.txt": strings.Repeat("alpha ", 1<<20)})
	path := filepath.Join(dir, search.IndexName)
	t.Run("cgigate -index writes a file others can read, says what it wrote, and leaves no temporary file", func(t *testing.T) {
		cmd := execCommand("-index", dir)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %s", err, errb.String())
		}
		if !strings.Contains(out.String(), "indexed 2 documents") || !strings.Contains(errb.String(), "big.txt skipped: larger than") {
			t.Errorf("stdout %q stderr %q", out.String(), errb.String())
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o644 {
			t.Fatalf("%v %v", fi, err)
		}
		left, _ := filepath.Glob(filepath.Join(dir, search.IndexName+"-*"))
		if len(left) != 0 {
			t.Errorf("left behind: %q", left)
		}
	})
	t.Run("the index is trusted until rebuilt: a new document is found only after cgigate -index", func(t *testing.T) {
		os.WriteFile(filepath.Join(dir, "new.txt"), []byte("alpha again"), 0o644)
		urls := func() []string {
			var u []string
			for _, r := range jsonResult(t, get(t, "alpha", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json").body).Results {
				u = append(u, r.URL)
			}
			return u
		}
		if got := urls(); len(got) != 2 {
			t.Errorf("before rebuilding: %q", got)
		}
		buildWithBinary(t, dir)
		if got := urls(); len(got) != 3 {
			t.Errorf("after rebuilding: %q", got)
		}
	})
	t.Run("cgigate -index reads CGIGATE_INDEX_CHARSET as the CGI does", func(t *testing.T) {
		// ｲﾝｻﾂ in Shift_JIS (by iconv), which the sniffer alone takes
		// for GBK: a short text is what the setting is for.
		dir := makeIndex(t, map[string]string{"sjis.txt": "\xb2\xdd\xbb\xc2"})
		cmd := execCommand("-index", dir)
		cmd.Env = append(os.Environ(), "CGIGATE_INDEX_CHARSET=shift_jis")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		a := get(t, "%E3%82%A4%E3%83%B3%E3%82%B5%E3%83%84", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json") // インサツ
		if r := jsonResult(t, a.body); len(r.Results) != 1 || r.Results[0].Snippet != "ｲﾝｻﾂ" {
			t.Errorf("results %+v", r.Results)
		}
	})
	t.Run("a bad CGIGATE_INDEX_CHARSET is exit status 1 naming it", func(t *testing.T) {
		cmd := execCommand("-index", dir)
		cmd.Env = append(os.Environ(), "CGIGATE_INDEX_CHARSET=no-such-charset")
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "CGIGATE_INDEX_CHARSET") {
			t.Errorf("%v %q", err, out)
		}
	})
	t.Run("a folder that does not exist is exit status 1 with the reason", func(t *testing.T) {
		out, err := execCommand("-index", filepath.Join(dir, "nope")).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "nope") {
			t.Errorf("%v %q", err, out)
		}
	})
	t.Run("in CGI mode -index in argv is an ISINDEX word, never the option", func(t *testing.T) {
		other := makeIndex(t, map[string]string{"x.txt": "index"})
		a := runCGI(t, cgiEnv("QUERY_STRING", "-index+"+other, "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json"), []string{"-index", other}, strings.NewReader(""))
		if a.status != 200 {
			t.Errorf("status %d", a.status)
		}
		if _, err := os.Stat(filepath.Join(other, search.IndexName)); err == nil {
			t.Error("an index was built from argv")
		}
	})
}

// The CGI binary must not link x/net/html's entity map: it is built at
// package init, and tokenText exists to keep it out.
func TestGatewayDoesNotLinkTheTokenizersEntityTable(t *testing.T) {
	for _, b := range []string{bin, lean(t)} {
		out, err := exec.Command("go", "tool", "nm", b).Output()
		if err != nil {
			t.Fatalf("go tool nm %s: %v", b, err)
		}
		if bytes.Contains(out, []byte("golang.org/x/net/html.entity")) {
			t.Errorf("%s links golang.org/x/net/html.entity: something calls x/net/html's Text, Token or UnescapeString", b)
		}
		if !bytes.Contains(out, []byte(" html.UnescapeString")) {
			t.Errorf("%s has no html.UnescapeString: is this test still reading the right symbols?", b)
		}
	}
}

func TestLongQueryIsRefused(t *testing.T) {
	dir := makeIndex(t, map[string]string{"a.txt": "e"})
	t.Run("an ISINDEX query of 2,000 words in one keyword is a 413", func(t *testing.T) {
		q := strings.Repeat("e%20", 1999) + "e"
		a := get(t, q, "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json")
		if msg, _ := jsonError(t, a.body); a.status != 413 || !strings.Contains(msg, "more than 100 keywords") {
			t.Errorf("status %d %q", a.status, msg)
		}
	})
}

func TestSkippedDocumentsGoToTheErrorLogOnly(t *testing.T) {
	dir := makeIndex(t, map[string]string{"a.txt": "alpha", "big.txt": strings.Repeat("alpha ", 1<<20)})
	a := get(t, "alpha", "CGIGATE_INDEX_DIR", dir)
	if !strings.Contains(a.stderr, "big.txt skipped: larger than") || strings.Contains(a.body, "big.txt") || strings.Contains(a.body, "skipped") {
		t.Errorf("stderr %q body:\n%s", a.stderr, a.body)
	}
}
