package security

import (
	"context"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// ISINDEX and argv injection: Apache passes an ISINDEX query's words to
// the CGI program as argv (RFC 3875 § 4.4), which php-cgi read as its own
// options: "?-s" showed the source, "?-d+allow_url_include=1" ran code
// (CVE-2012-1823; again through Windows' best-fit mapping of U+00AD to
// '-', CVE-2024-4577). The gateway reads no flag in CGI mode: the words
// come from QUERY_STRING, and argv is only compared with them.

// argvRun runs the gateway by exec as Apache would, with the words as
// argv, bounded: a gateway that took "-http ADDR" as a flag would serve
// forever instead of answering.
func argvRun(t *testing.T, query string, args ...string) response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	needGateway(t)
	cmd := exec.CommandContext(ctx, gateway, args...)
	for k, v := range cgiEnv("QUERY_STRING", query) {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("the gateway did not answer with argv %q: it read them as flags", args)
	}
	if err != nil {
		t.Fatalf("gateway: %v", err)
	}
	if stderr.Len() > 0 {
		t.Errorf("the gateway wrote to stderr with argv %q: %s", args, stderr.String())
	}
	r, err := parseCGI(out)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCVE_2012_1823_ISINDEXWordsAreNeverOptions(t *testing.T) {
	c := corpusCase(t, 20, "-debug+-config+evil.conf")
	t.Run("the words are keywords on every path", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			res := decoded(t, r)
			wantKeywords(t, res, "-debug", "-config", "evil.conf")
			if strings.Contains(strings.Join(res.Warnings, " "), "differ") {
				t.Errorf("argv and QUERY_STRING should agree here: %q", res.Warnings)
			}
		}, alsoPrefork())
	})
	for _, tc := range []struct {
		name  string
		query string
		args  []string
	}{
		{"the corpus words as argv", c.Input, []string{"-debug", "-config", "evil.conf"}},
		{"the gateway's own -http flag as argv does not start a server", "-http+127.0.0.1:0", []string{"-http", "127.0.0.1:0"}},
		{"the gateway's own -fcgi flag as argv does not start a server", "-fcgi+127.0.0.1:0", []string{"-fcgi", "127.0.0.1:0"}},
		{"-help as argv prints no usage", "-help", []string{"-help"}},
		{"php-cgi's -s as argv", "-s", []string{"-s"}},
	} {
		t.Run(tc.name+" (exec, as Apache runs it)", func(t *testing.T) {
			r := argvRun(t, tc.query, tc.args...)
			checkOutput(t, r, nil)
			wantKeywords(t, decoded(t, r), tc.args...)
		})
	}
	t.Run("the gateway's own -http flag through Apache", func(t *testing.T) {
		each(t, request{Query: "-http+127.0.0.1:0"}, func(t *testing.T, r response) {
			wantKeywords(t, decoded(t, r), "-http", "127.0.0.1:0")
		}, alsoPrefork())
	})
}

func TestCVE_2024_4577_SoftHyphenIsNeverADash(t *testing.T) {
	c := corpusCase(t, 21, "%ADd+allow_url_include%3d1")
	noDash := func(t *testing.T, res result) {
		t.Helper()
		if len(res.Keywords) != 2 || strings.HasPrefix(res.Keywords[0], "-") || res.Keywords[1] != "allow_url_include=1" {
			t.Errorf("keywords %q", res.Keywords)
		}
	}
	t.Run("unnamed, the byte is sniffed, never mapped to '-'", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) { noDash(t, decoded(t, r)) }, alsoPrefork())
	})
	t.Run("with sniffing off, it is U+FFFD then d", func(t *testing.T) {
		each(t, request{Script: "cgigate-nosniff", Query: c.Input}, func(t *testing.T, r response) {
			wantKeywords(t, decoded(t, r), "\uFFFDd", "allow_url_include=1")
		})
	})
	t.Run("named windows-1252, it is U+00AD then d, not best-fit '-'", func(t *testing.T) {
		each(t, request{Query: "[windows-1252]:" + c.Input}, func(t *testing.T, r response) {
			res := decoded(t, r)
			wantKeywords(t, res, "\u00ADd", "allow_url_include=1")
			noDash(t, res)
		})
	})
}

func TestEncodedEqualsKeepsISINDEX(t *testing.T) {
	c := corpusCase(t, 23, "a%3Db")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		wantKeywords(t, decoded(t, r), "a=b")
	})
}

// TestAmpersandWithoutEqualsIsISINDEX pins the gateway's rule: an
// unencoded '=' makes a FORM (RFC 3875 § 4.4), so "a&b" is one ISINDEX
// word, as Apache sees it (argv "a\&b", shell-escaped, which the gateway
// unescapes to compare: no difference is reported).
func TestAmpersandWithoutEqualsIsISINDEX(t *testing.T) {
	c := corpusCase(t, 24, "a&b")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		res := decoded(t, r)
		wantKeywords(t, res, "a&b")
		if len(res.Warnings) != 0 {
			t.Errorf("warnings %q", res.Warnings)
		}
	}, alsoPrefork())
}

func TestEncodedPlusStaysInsideAWord(t *testing.T) {
	c := corpusCase(t, 25, "x%2By+z")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		res := decoded(t, r)
		wantKeywords(t, res, "x+y", "z")
		if len(res.Warnings) != 0 {
			t.Errorf("Apache's argv (\"x+y\", \"z\") should agree: %q", res.Warnings)
		}
	}, alsoPrefork())
}

func TestISINDEXOnPOSTGivesNoKeywords(t *testing.T) {
	c := corpusCase(t, 26, "foo")
	rq := form("a=1")
	rq.Query = c.Input
	each(t, rq, func(t *testing.T, r response) {
		res := decoded(t, r)
		if len(res.Keywords) != 0 {
			t.Errorf("keywords %q on a POST", res.Keywords)
		}
		wantFields(t, res, b("a", "1"))
		warned(t, res, "RFC 3875 § 4.4")
	}, alsoPrefork())
}

func TestEmptyQueryAndLoneEquals(t *testing.T) {
	c := corpusCase(t, 27, "=")
	t.Run("no query is the empty kind, no parameters", func(t *testing.T) {
		each(t, request{}, func(t *testing.T, r response) {
			res := decoded(t, r)
			if res.Kind != "empty" || len(res.Fields) != 0 || len(res.Keywords) != 0 {
				t.Errorf("%+v", res)
			}
		})
	})
	t.Run("no query in HTML is the ISINDEX prompt", func(t *testing.T) {
		each(t, request{Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "This is a searchable index")
			if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
		})
	})
	t.Run("a lone '=' is a FORM with an empty name and value", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			res := decoded(t, r)
			if res.Kind != "form" {
				t.Errorf("kind %q", res.Kind)
			}
			wantFields(t, res, q("", ""))
		})
	})
	_ = http.MethodGet
}
