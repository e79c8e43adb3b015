package security

import (
	"testing"
)

// Separators: a cache, a WAF and the application must see the same
// parameters. ';' is not a separator by default (WHATWG URL § 5.1;
// CVE-2021-23336 is what splitting on it let through Python's cache
// keying); CGIGATE_SEPARATOR=&; turns HTML 4.01 § B.2.2's ';' on.

func TestCVE_2021_23336_SemicolonIsNotASeparator(t *testing.T) {
	c := corpusCase(t, 1, "a=1;b=2")
	t.Run("by default the value keeps the semicolon and there is no parameter b", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("a", "1;b=2"))
		}, alsoPrefork())
	})
	t.Run("with CGIGATE_SEPARATOR=&; the semicolon separates", func(t *testing.T) {
		each(t, request{Script: "cgigate-semicolon", Query: c.Input}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("a", "1"), q("b", "2"))
		})
	})
}

func TestRack1732_SemicolonCannotSmuggleAParameter(t *testing.T) {
	c := corpusCase(t, 2, "utm_content=1;link=")
	t.Run("the JSON rendering has one field, utm_content, holding the rest", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("utm_content", "1;link='><script>alert(1)</script>"))
		})
	})
	t.Run("the HTML rendering escapes the echo", func(t *testing.T) {
		each(t, request{Query: c.Input, Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "<dd>1;link=&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</dd>")
		}, noRaw("<script>alert(1)", "'><"))
	})
}
