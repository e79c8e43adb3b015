package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/vectors"
)

// wptURL is one object of web-platform-tests' url/resources/urltestdata.json.
type wptURL struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Failure  bool    `json:"failure"`
	Hostname string  `json:"hostname"`
	Port     string  `json:"port"`
	Pathname string  `json:"pathname"`
	Username string  `json:"username"`
	Password string  `json:"password"`
}

// wptDifferences lists, by input, the WPT cases this command knowingly
// reads differently from the URL Standard, and why. The test fails when
// one of them starts to agree, so that the list stays true.
var wptDifferences = map[string]string{
	"http://example.com/foo%00%51": "a NUL becomes U+FFFD with a warning, as decoder does in queries: no decoded text holds U+0000",
}

// wptInputs selects the cases that are absolute URLs of a special scheme
// with an authority ("http://..."), written on one line as a user would
// type them: no controls, tabs, newlines, or leading and trailing spaces
// (the URL Standard strips those; this command reads lines).
func wptInputs(t *testing.T) []wptURL {
	var raw []json.RawMessage
	if err := json.Unmarshal(vectors.Read(t, "wpt/urltestdata.json"), &raw); err != nil {
		t.Fatal(err)
	}
	var out []wptURL
	for _, r := range raw {
		var c wptURL
		if json.Unmarshal(r, &c) != nil || c.Input == "" {
			continue // the file's comments are strings
		}
		l := strings.ToLower(c.Input)
		ok := false
		for _, p := range []string{"http://", "https://", "ws://", "wss://", "ftp://"} {
			ok = ok || strings.HasPrefix(l, p)
		}
		if !ok || strings.TrimSpace(c.Input) != c.Input || strings.ContainsFunc(c.Input, func(r rune) bool { return r < 0x20 || r == 0x7F }) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// TestHostsPortsAndPathsAgreeWithWPT reads every selected case in one run
// of the command (one input a line, one JSON object a line) and compares
// the host, the port and the path segments with the URL Standard's.
func TestHostsPortsAndPathsAgreeWithWPT(t *testing.T) {
	cases := wptInputs(t)
	if len(cases) < 100 {
		t.Fatalf("only %d WPT cases selected", len(cases))
	}
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(c.Input + "\n")
	}
	r := urldecode(t, in.String(), "-json", "-charset", "utf-8")
	got := jsonLines(t, r.stdout)
	if len(got) != len(cases) {
		t.Fatalf("%d objects for %d inputs", len(got), len(cases))
	}
	for i, c := range cases {
		g := got[i]
		why, known := wptDifferences[c.Input]
		t.Run(c.Input, func(t *testing.T) {
			failed := g.Error != "" || len(g.Errors) > 0
			var diff string
			switch {
			case c.Failure && !failed:
				diff = "the URL Standard refuses it; urldecode did not"
			case c.Failure:
			case failed && !strings.Contains(g.Error+strings.Join(g.Errors, ""), "invalid in utf-8"):
				diff = "urldecode refused it: " + g.Error + strings.Join(g.Errors, "; ")
			case g.HostASCII != c.Hostname:
				diff = "host " + strconv.Quote(g.HostASCII) + ", want " + strconv.Quote(c.Hostname)
			case wptPort(g) != c.Port:
				diff = "port " + strconv.Quote(wptPort(g)) + ", want " + strconv.Quote(c.Port)
			case !hasDotSegment(c.Input) && "/"+strings.Join(g.Segments, "/") != wptPath(c.Pathname):
				diff = "path " + strconv.Quote("/"+strings.Join(g.Segments, "/")) + ", want " + strconv.Quote(wptPath(c.Pathname))
			}
			switch {
			case diff != "" && !known:
				t.Errorf("%s\n%+v", diff, g)
			case diff == "" && known:
				t.Errorf("listed as a known difference (%s) but agrees now", why)
			}
		})
	}
}

func wptPort(g decodedJSON) string {
	if g.PortDefault || g.Port == nil {
		return ""
	}
	return strconv.Itoa(*g.Port)
}

// wptPath percent-decodes the standard's serialized path and reads it as
// UTF-8, as the command with -charset utf-8 does.
func wptPath(p string) string {
	b, _ := percentDecode(p)
	return strings.ToValidUTF8(b, "\uFFFD")
}

// hasDotSegment is true of paths the URL Standard shortens ("/a/../b"),
// which this command shows as written.
func hasDotSegment(u string) bool {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	for _, s := range strings.FieldsFunc(u, func(r rune) bool { return r == '/' || r == '\\' }) {
		switch strings.ToLower(s) {
		case ".", "..", "%2e", "%2e%2e", ".%2e", "%2e.":
			return true
		}
	}
	return false
}
