package security

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// Parameter flooding: every bound a request can push on has a default and
// answers 413 beyond it, before the work it would cost. Go's own
// url.ParseQuery returns an empty map with its "too many parameters"
// error (CVE-2025-61726); the gateway never mistakes that for an empty
// form.

func TestCVE_2025_61726_TooManyQueryParametersIs413(t *testing.T) {
	c := corpusCase(t, 8, "10,001 pairs")
	corpus := strings.Repeat("k=v&", 10000) + "k=v"
	t.Run("10,001 pairs in the query", func(t *testing.T) {
		// 40 KB is over Apache's LimitRequestLine (8190 bytes).
		each(t, request{Query: corpus}, func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "fields")
		}, apacheRefuses(http.StatusRequestURITooLong, "LimitRequestLine 8190 < 40 KB of query"))
	})
	t.Run("1,001 pairs in the query, which Apache lets through", func(t *testing.T) {
		each(t, request{Query: strings.Repeat("k=v&", 1000) + "k=v"}, func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "fields")
		}, alsoPrefork())
	})
	t.Run("exactly 1,000 pairs are a form", func(t *testing.T) {
		each(t, request{Query: strings.Repeat("k=v&", 999) + "k=v"}, func(t *testing.T, r response) {
			if res := decoded(t, r); len(res.Fields) != 1000 {
				t.Errorf("%d fields", len(res.Fields))
			}
		})
	})
	t.Run("10,001 pairs in a body", func(t *testing.T) {
		each(t, form(corpus), func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "fields")
		}, alsoPrefork())
	})
	t.Run("1,000 ISINDEX words, over the 100 allowed", func(t *testing.T) {
		each(t, request{Query: strings.Repeat("w+", 1000)}, func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "keywords")
		})
	})
	t.Run("CGIGATE_MAX_FIELDS=20 lowers the bound", func(t *testing.T) {
		each(t, request{Script: "cgigate-small", Query: strings.Repeat("k=v&", 20) + "k=v"}, func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge)
		})
	})
	_ = c
}

func TestBodyOverTheCapIs413(t *testing.T) {
	c := corpusCase(t, 9, "10 MiB + 1 byte")
	big := bytes.Repeat([]byte("a"), 10<<20+1)
	t.Run("10 MiB + 1 byte of an urlencoded body", func(t *testing.T) {
		rq := form("")
		rq.Body = big
		each(t, rq, func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "CONTENT_LENGTH", "10485761")
		})
	})
	t.Run("CGIGATE_MAX_BODY=4096 lowers the cap", func(t *testing.T) {
		rq := form("a=" + strings.Repeat("b", 4095))
		rq.Script = "cgigate-small"
		each(t, rq, func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "more than 4096 bytes")
		}, alsoPrefork())
	})
	t.Run("exactly the cap is read", func(t *testing.T) {
		rq := form("a=" + strings.Repeat("b", 4094))
		rq.Script = "cgigate-small"
		each(t, rq, func(t *testing.T, r response) {
			if res := decoded(t, r); len(res.Fields) != 1 || len(res.Fields[0].Value) != 4094 {
				t.Errorf("fields %d", len(res.Fields))
			}
		})
	})
	_ = c
}
