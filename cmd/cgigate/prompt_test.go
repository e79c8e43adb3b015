package main

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// promptDriver runs the prompt page's script in Node with the two DOM
// objects it touches, submits the form with the typed text, and prints
// where the browser would go.
const promptDriver = `
const script = require("fs").readFileSync(0, "utf8");
let onSubmit = null;
const form = { addEventListener: (ev, fn) => { if (ev === "submit") onSubmit = fn; } };
const box = { value: process.env.TYPED };
globalThis.document = { getElementById: (id) => (id === "isindex" ? form : id === "q" ? box : null) };
globalThis.location = { search: "" };
(0, eval)(script);
let prevented = false;
onSubmit({ preventDefault() { prevented = true; } });
console.log(JSON.stringify({ search: location.search, prevented }));
`

// The prompt, submitted from a browser, makes a real ISINDEX query: the
// words percent-encoded and joined by '+', no unencoded '='.
func TestPromptScriptMakesAnISINDEXQuery(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing.SkipOrFail(t, "node is not installed (apt-get install nodejs); the prompt's script is not run")
	}
	page := get(t, "").body
	m := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no script on the prompt page")
	}
	for _, tc := range []struct {
		typed, search string
		keywords      []string
	}{
		{"foo bar", "?foo+bar", []string{"foo", "bar"}},
		{"  a=b   印刷 x+y ", "?a%3Db+%E5%8D%B0%E5%88%B7+x%2By", []string{"a=b", "印刷", "x+y"}},
		{"-s -dallow_url_include=1", "?-s+-dallow_url_include%3D1", []string{"-s", "-dallow_url_include=1"}},
		{`"><svg onload=alert(1)>`, "?%22%3E%3Csvg+onload%3Dalert(1)%3E", []string{`"><svg`, "onload=alert(1)>"}},
	} {
		t.Run("typing "+tc.typed+" goes to "+tc.search, func(t *testing.T) {
			cmd := exec.Command(node, "-e", promptDriver)
			cmd.Env = []string{"TYPED=" + tc.typed} // not argv: node would take "-s" as its own option
			cmd.Stdin = strings.NewReader(m[1])
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			var got struct {
				Search    string
				Prevented bool
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if got.Search != tc.search || !got.Prevented {
				t.Fatalf("search %q prevented %v", got.Search, got.Prevented)
			}
			r := jsonResult(t, get(t, strings.TrimPrefix(got.Search, "?"), acceptJSON, "application/json").body)
			if r.Kind != "isindex" || !equal(r.Keywords, tc.keywords) {
				t.Errorf("kind %s keywords %q", r.Kind, r.Keywords)
			}
		})
	}
	t.Run("typing nothing stays on the page", func(t *testing.T) {
		cmd := exec.Command(node, "-e", promptDriver)
		cmd.Env = []string{"TYPED=   "}
		cmd.Stdin = strings.NewReader(m[1])
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), `"search":""`) {
			t.Errorf("%s %v", out, err)
		}
	})
}
