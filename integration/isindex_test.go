package integration

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
)

// echoed asks the echo CGI beside the gateway for target: what Apache put
// in QUERY_STRING and argv for that request.
func echoed(t *testing.T, s *apachetest.Server, method, target string) apachetest.EchoReport {
	t.Helper()
	r := send(t, s, method, strings.Replace(target, gatewayPath, "/cgi-bin/echo", 1), "", nil, "")
	if r.Status != http.StatusOK {
		t.Fatalf("echo CGI: status %d: %s", r.Status, r.Body)
	}
	var rep apachetest.EchoReport
	if err := json.Unmarshal(r.Body, &rep); err != nil {
		t.Fatalf("echo CGI: %v: %s", err, r.Body)
	}
	return rep
}

// searchWords splits an ISINDEX QUERY_STRING as RFC 3875 § 4.4 says: on
// "+", each word percent-decoded. It is the independent truth the
// gateway's keywords are checked against (net/url, not the decoder).
func searchWords(t *testing.T, qs string) []string {
	t.Helper()
	var out []string
	for _, w := range strings.Split(qs, "+") {
		d, err := url.PathUnescape(w)
		if err != nil {
			t.Fatalf("QUERY_STRING %q: %v", qs, err)
		}
		out = append(out, d)
	}
	return out
}

// containsEach reports whether each got[i] contains subs[i].
func containsEach(got, subs []string) bool {
	for i, sub := range subs {
		if !strings.Contains(got[i], sub) {
			return false
		}
	}
	return true
}

// TestISINDEXQueriesThroughApache sends ISINDEX queries whose words Apache
// also passes in argv, backslash-escaped (ap_escape_shell_cmd), and checks
// that the gateway's keywords are QUERY_STRING's words, that argv agreed
// with them (no warning), and that no word was ever taken as an option.
func TestISINDEXQueriesThroughApache(t *testing.T) {
	tests := []struct {
		name  string
		query string
		argc  int // how many argv words Apache passes
		// want overrides QUERY_STRING's words where the gateway must
		// change them; warns are the warnings then expected, in order.
		want  []string
		warns []string
	}{
		{"two plain words are two keywords", "cgigate+gateway", 2, nil, nil},
		{"raw shell metacharacters stay in their word", "a&b;c$d`e(f)g+x", 2, nil, nil},
		{"percent-encoded shell metacharacters and a backslash are decoded", "a%26b%3Bc%24d%60e%28f%29g+x%5Cy", 2, nil, nil},
		{"an encoded equals sign keeps the query an ISINDEX search", "a%3Db+c%3D%3Dd", 2, nil, nil},
		{"UTF-8 words are decoded", "%E5%8D%B0%E5%88%B7+%E3%83%86%E3%82%B9%E3%83%88", 2, nil, nil},
		{"a -s word is a keyword, not php-cgi's show-source flag", "-s", 1, nil, nil},
		{"the gateway's own -http flag in the query is a keyword and starts no server", "-http+127.0.0.1:1", 2, nil, nil},
		{"-fcgi and --help are keywords", "-fcgi+127.0.0.1:1+--help+-h", 4, nil, nil},
		{"the CVE-2012-1823 payload is three keywords", "-d+allow_url_include%3D1+-n", 3, nil, nil},
		{"glob characters and quotes, which Apache backslash-escapes in argv, are kept", `*+?+~+'"`, 4, nil, nil},
		{"an encoded plus and newline stay inside their words", "a%2Bb+c%0Ad", 2, nil, nil},
		{"an encoded NUL, which cuts Apache's argv word short, is U+FFFD with a warning that argv differed",
			"a%00b+c", 2, []string{"a\uFFFDb", "c"}, []string{"command-line arguments differ from QUERY_STRING", "NUL"}},
	}
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			s := startGateway(t, apachetest.Options{MPM: mpm})
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					target := gatewayPath + "?" + tt.query
					rep := echoed(t, s, "GET", target)
					if rep.QueryString != tt.query {
						t.Fatalf("Apache set QUERY_STRING %q, want %q as sent", rep.QueryString, tt.query)
					}
					if len(rep.Args) != tt.argc {
						t.Fatalf("Apache passed argv %q, want %d words (it does so for ISINDEX queries)", rep.Args, tt.argc)
					}
					want := searchWords(t, rep.QueryString)
					if tt.want != nil {
						want = tt.want
					}
					r := getJSON(t, s, target)
					if r.Kind != "isindex" || r.Method != "GET" {
						t.Errorf("kind %q method %q, want isindex GET", r.Kind, r.Method)
					}
					if !slices.Equal(r.Keywords, want) {
						t.Errorf("keywords %q, want %q (QUERY_STRING's words)", r.Keywords, want)
					}
					if len(r.Fields) != 0 || len(r.Files) != 0 {
						t.Errorf("fields %v files %v, want none for a search", r.Fields, r.Files)
					}
					if tt.warns == nil && len(r.Warnings) != 0 {
						t.Errorf("warnings %q, want none: argv %q carried the same words", r.Warnings, rep.Args)
					}
					if tt.warns != nil && (len(r.Warnings) != len(tt.warns) || !containsEach(r.Warnings, tt.warns)) {
						t.Errorf("warnings %q, want %d saying %q", r.Warnings, len(tt.warns), tt.warns)
					}
				})
			}
			t.Run("a charset hint before the words is not a difference from argv", func(t *testing.T) {
				// Apache knows no hints: its first argv word starts with
				// "[JIS0208:EUC]:", which the gateway has already taken off
				// QUERY_STRING's first word before comparing.
				q := "[JIS0208:EUC]:%B0%F5%BA%FE+%B5%BB%BD%D1" // 印刷 技術 in EUC-JP (Python's codecs)
				if rep := echoed(t, s, "GET", gatewayPath+"?"+q); len(rep.Args) != 2 || !strings.HasPrefix(rep.Args[0], `\[JIS0208:EUC\]:`) {
					t.Fatalf("Apache passed argv %q, want two words, the first with the escaped hint", rep.Args)
				}
				r := getJSON(t, s, gatewayPath+"?"+q)
				if !slices.Equal(r.Keywords, []string{"印刷", "技術"}) || r.CharsetSource != "hint" {
					t.Errorf("keywords %q from %q, want 印刷 技術 from the hint", r.Keywords, r.CharsetSource)
				}
				if len(r.Warnings) != 0 {
					t.Errorf("warnings %q, want none", r.Warnings)
				}
			})
			t.Run("the HTML rendering lists the keywords escaped", func(t *testing.T) {
				r := send(t, s, "GET", gatewayPath+"?%3Cb%3Ex+y%26z", "", nil, "")
				if r.Status != http.StatusOK {
					t.Fatalf("status %d: %s", r.Status, r.Body)
				}
				if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("Content-Type %q", ct)
				}
				body := string(r.Body)
				for _, w := range []string{`<strong class="keyword">&lt;b&gt;x</strong>`, `<strong class="keyword">y&amp;z</strong>`} {
					if !strings.Contains(body, w) {
						t.Errorf("the page lacks %s:\n%s", w, body)
					}
				}
				if strings.Contains(body, "<b>x") {
					t.Errorf("a keyword reached the page unescaped:\n%s", body)
				}
			})
			t.Run("no query is the ISINDEX prompt page", func(t *testing.T) {
				r := send(t, s, "GET", gatewayPath, "", nil, "")
				if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `<form id="isindex"`) {
					t.Errorf("status %d, want 200 and the prompt form:\n%s", r.Status, r.Body)
				}
				if r.Header.Get("Content-Security-Policy") == "" {
					t.Errorf("the prompt page has no Content-Security-Policy")
				}
				j := getJSON(t, s, gatewayPath)
				if j.Kind != "empty" {
					t.Errorf("kind %q, want empty", j.Kind)
				}
			})
		})
	}
}
