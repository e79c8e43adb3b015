package security

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/httpdconf"
)

// Escapes and double decoding: a percent escape is decoded exactly once,
// after the structure ('&', '=', '+') is split on raw bytes (WHATWG URL
// § 5.1), and a malformed escape is kept as text with a warning rather
// than failing the request or turning it into an ISINDEX query. Decoding
// twice is how IIS let "..%255c" through its path check (CVE-2001-0333).

func TestMalformedEscapeIsKeptLiterally(t *testing.T) {
	c := corpusCase(t, 3, "a=%zz&b=2")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		res := decoded(t, r)
		if res.Kind != "form" {
			t.Errorf("kind %q; want form (never ISINDEX)", res.Kind)
		}
		wantFields(t, res, q("a", "%zz"), q("b", "2"))
		warned(t, res, `malformed escape "%zz" kept as it is`)
	})
}

func TestMalformedEscapesFollowWHATWG(t *testing.T) {
	c := corpusCase(t, 4, "value=%&v2=%4&v3=%%2a")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		res := decoded(t, r)
		// WPT urlencoded-parser-data.json: "%" and "%4" stay, "%%2a" is "%*".
		wantFields(t, res, q("value", "%"), q("v2", "%4"), q("v3", "%*"))
		if len(res.Warnings) != 3 {
			t.Errorf("warnings %q; want one per malformed escape", res.Warnings)
		}
	})
}

func TestEncodedEqualsIsDataNotStructure(t *testing.T) {
	c := corpusCase(t, 5, "%3D=%26")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		res := decoded(t, r)
		if res.Kind != "form" {
			t.Errorf("kind %q; want form: there is an unencoded '='", res.Kind)
		}
		wantFields(t, res, q("=", "&"))
	})
}

func TestPairSplitsAtTheFirstEquals(t *testing.T) {
	c := corpusCase(t, 6, "a=b=c")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		wantFields(t, decoded(t, r), q("a", "b=c"))
	})
}

func TestPlusIsSpaceAndEncodedPlusIsPlus(t *testing.T) {
	c := corpusCase(t, 7, "a+b=c+d&e=%2B")
	t.Run("in a query", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("a b", "c d"), q("e", "+"))
		})
	})
	t.Run("in an urlencoded body", func(t *testing.T) {
		each(t, form(c.Input), func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), b("a b", "c d"), b("e", "+"))
		})
	})
}

func TestCVE_2001_0333_DecodedExactlyOnce(t *testing.T) {
	c := corpusCase(t, 14, "f=..%255c..%255cwinnt%255csystem32")
	check := func(src func(string, string) field) func(t *testing.T, r response) {
		return func(t *testing.T, r response) {
			res := decoded(t, r)
			wantFields(t, res, src("f", "..%5c..%5cwinnt%5csystem32"))
			if strings.Contains(string(r.Body), `\\`) {
				t.Errorf("a backslash appeared: %s", r.Body)
			}
		}
	}
	t.Run("in a query", func(t *testing.T) { each(t, request{Query: c.Input}, check(q), alsoPrefork()) })
	t.Run("in an urlencoded body", func(t *testing.T) { each(t, form(c.Input), check(b)) })
	t.Run("in an ISINDEX word", func(t *testing.T) {
		each(t, request{Query: "..%255c..%255cwinnt"}, func(t *testing.T, r response) {
			wantKeywords(t, decoded(t, r), "..%5c..%5cwinnt")
		})
	})
}

// TestPathInfoIsNotDecodedAgain: Apache decodes the path once into
// PATH_INFO (as the echo program shows); the gateway reads no file by it
// and decodes it no further, so "%2e%2e" never becomes "..".
func TestPathInfoIsNotDecodedAgain(t *testing.T) {
	c := corpusCase(t, 15, "/a/%252e%252e/b")
	rq := request{PathInfo: "/a/%252e%252e/b", Query: "x=1"}
	t.Run("Apache hands PATH_INFO over decoded once", func(t *testing.T) {
		srv := apache(t, httpdconf.MPMEvent)
		r := srv.Do(t, http.MethodGet, "/cgi-bin/echo/a/%252e%252e/b?x=1", nil, nil)
		var rep struct{ Env map[string]string }
		if err := json.Unmarshal(r.Body, &rep); err != nil {
			t.Fatalf("echo: %v\n%s", err, r.Body)
		}
		if got := rep.Env["PATH_INFO"]; got != "/a/%2e%2e/b" {
			t.Errorf("PATH_INFO %q; want /a/%%2e%%2e/b (%s)", got, c.Want)
		}
	})
	t.Run("the gateway answers 404 when no form is declared there, decoding nothing again", func(t *testing.T) {
		each(t, rq, func(t *testing.T, r response) {
			if r.Via == "fastcgi" {
				// The rendered mod_proxy_fcgi passes no PATH_INFO: under
				// FastCGI the path addresses nothing and the gateway
				// answers itself.
				wantFields(t, decoded(t, r), q("x", "1"))
			} else {
				refused(t, r, http.StatusNotFound, "/a/%2e%2e/b")
			}
			if strings.Contains(string(r.Body), "..") {
				t.Errorf("the path was decoded again: %s", r.Body)
			}
		}, alsoPrefork())
	})
}
