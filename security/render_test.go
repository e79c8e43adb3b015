package security

import (
	"bytes"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
)

// Rendering: every value is escaped for where it lands (html/template's
// contextual escaping: text, attribute, URL), every byte served is valid
// UTF-8 (html/template and encoding/json pass some invalid bytes on), and
// every page names charset=utf-8, so no browser guesses UTF-7.

func TestRawQuoteAndBracketsAreEscapedText(t *testing.T) {
	c := corpusCase(t, 10, `q="><script>`)
	t.Run("the raw bytes are the value", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("q", `"><script>`))
		}, alsoPrefork())
	})
	t.Run("rendered as &#34;&gt;&lt;script&gt;", func(t *testing.T) {
		each(t, request{Query: c.Input, Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "<dd>&#34;&gt;&lt;script&gt;</dd>")
		}, noRaw(`"><script>`))
	})
}

func TestMarkupInAValueIsEscaped(t *testing.T) {
	c := corpusCase(t, 66, `"><svg onload=alert(1)>`)
	enc := strings.NewReplacer(`"`, "%22", ">", "%3E", "<", "%3C", " ", "%20", "=", "%3D", "(", "%28", ")", "%29").Replace(c.Input)
	esc := "&#34;&gt;&lt;svg onload=alert(1)&gt;"
	for _, tc := range []struct {
		name string
		rq   request
		want string
	}{
		{"a field value", request{Query: "q=" + enc}, "<dd>" + esc + "</dd>"},
		{"a field name", request{Query: enc + "=v"}, "<dt>" + esc + "</dt>"},
		{"an ISINDEX word", request{Query: enc}, `<strong class="keyword">` + esc + "</strong>"},
		{"a file name in multipart", multipartReq(mpX, part(`name="f"; filename*=UTF-8''`+enc, "x")+"--X--\r\n"), "<dd>" + esc + " (1 bytes)</dd>"},
		{"a charset label in an error page", request{Query: "[" + enc + "]:q=1"}, ""},
		{"a malformed escape in a warning", request{Query: "q=%" + enc}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.rq.Accept = "text/html"
			each(t, tc.rq, func(t *testing.T, r response) {
				if tc.want != "" {
					wantHTML(t, r, tc.want)
				}
				if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("Content-Type %q", ct)
				}
			}, noRaw("<svg"))
		})
	}
}

func TestJavascriptURLIsNeverAnHref(t *testing.T) {
	c := corpusCase(t, 67, "javascript:alert(1)")
	t.Run("a document named javascript:alert(1).txt is no link when CGIGATE_INDEX_URL is unset", func(t *testing.T) {
		each(t, request{Script: "cgigate-index", Query: "findme", Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "Links to the documents are not configured")
		}, noRaw(`href="`+c.Input, `href="javascript:`, `href="./javascript`))
	})
	t.Run("in JSON the URL is the same relative path", func(t *testing.T) {
		each(t, request{Script: "cgigate-index", Query: "findme"}, func(t *testing.T, r response) {
			res := decoded(t, r)
			found := false
			for _, x := range res.Results {
				if strings.HasPrefix(x.URL, "javascript:") {
					t.Errorf("result URL %q", x.URL)
				}
				found = found || x.URL == "./javascript:alert%281%29.txt"
			}
			if !found {
				t.Errorf("results %+v", res.Results)
			}
		})
	})
	t.Run("a field holding it is text, not a link", func(t *testing.T) {
		each(t, request{Query: "u=javascript:alert(1)", Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "<dd>javascript:alert(1)</dd>")
		}, noRaw(`href="javascript:`))
	})
}

func TestInvalidBytesAreNeverRendered(t *testing.T) {
	c := corpusCase(t, 68, "\xff\xfe<x>")
	var pct strings.Builder
	for _, x := range []byte(c.Input) {
		pct.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{x})))
	}
	t.Run("with sniffing off, FF FE are U+FFFD and the rest escaped", func(t *testing.T) {
		each(t, request{Script: "cgigate-nosniff", Query: "q=" + pct.String(), Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "<dd>\uFFFD\uFFFD&lt;x&gt;</dd>")
		}, noRaw("\xff", "<x>"), alsoPrefork())
	})
	t.Run("sniffed, whatever the charset, the page is valid UTF-8", func(t *testing.T) {
		for _, accept := range []string{"text/html", "application/json", "text/plain"} {
			each(t, request{Query: "q=" + pct.String(), Accept: accept}, func(t *testing.T, r response) {
				if r.Status != http.StatusOK {
					t.Errorf("status %d", r.Status)
				}
			}, noRaw("\xff", "\xfe"))
		}
	})
	t.Run("the raw bytes in the query", func(t *testing.T) {
		each(t, request{Script: "cgigate-nosniff", Query: "q=" + c.Input, Accept: "text/plain"}, func(t *testing.T, r response) {
			if !bytes.Contains(r.Body, []byte(`"\uFFFD\uFFFD<x>"`)) && !bytes.Contains(r.Body, []byte("\"\uFFFD\uFFFD<x>\"")) {
				t.Errorf("text rendering:\n%s", r.Body)
			}
		}, noRaw("\xff"))
	})
}
