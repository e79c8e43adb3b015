package security

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder"
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

// TestEveryInputBoundHasADefault sends one byte past each default bound
// that the corpus cases above do not reach, and the bound itself.
func TestEveryInputBoundHasADefault(t *testing.T) {
	t.Run("a name of 1025 bytes is 413, of 1024 a field", func(t *testing.T) {
		each(t, form(strings.Repeat("n", 1025)+"=v"), func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "name bytes")
		})
		each(t, form(strings.Repeat("n", 1024)+"=v"), func(t *testing.T, r response) {
			if res := decoded(t, r); len(res.Fields) != 1 {
				t.Errorf("%d fields", len(res.Fields))
			}
		})
	})
	t.Run("a value of 1 MiB + 1 byte is 413", func(t *testing.T) {
		each(t, form("v="+strings.Repeat("a", 1<<20+1)), func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "value bytes")
		})
	})
	t.Run("a multipart text part of 1 MiB + 1 byte is 413", func(t *testing.T) {
		each(t, multipartReq(mpX, part(`name="v"`, strings.Repeat("a", 1<<20+1))+"--X--\r\n"), func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge)
		})
	})
	t.Run("101 ISINDEX words are 413, 100 are a search", func(t *testing.T) {
		each(t, request{Query: strings.TrimSuffix(strings.Repeat("w+", 101), "+")}, func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "keywords")
		})
		each(t, request{Query: strings.TrimSuffix(strings.Repeat("w+", 100), "+")}, func(t *testing.T, r response) {
			if res := decoded(t, r); len(res.Keywords) != 100 {
				t.Errorf("%d keywords", len(res.Keywords))
			}
		})
	})
	t.Run("a file over Limits.FileBytes is 413 (cgi.ReadForm)", func(t *testing.T) {
		body := part(`name="f"; filename="a"`, strings.Repeat("x", 11)) + "--X--\r\n"
		var got error
		h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
			_, got = cgi.ReadForm(r, cgi.Config{Limits: cgi.Limits{FileBytes: 10}, TempDir: t.TempDir()})
			cgi.WriteError(w, r, got)
		})
		var out bytes.Buffer
		if err := cgi.ServeEnv(h, cgi.Limits{}, postEnv(mpX, len(body)), nil, strings.NewReader(body), &out); err != nil {
			t.Fatal(err)
		}
		if st := cgi.StatusOf(got); st != http.StatusRequestEntityTooLarge {
			t.Errorf("status %d: %v", st, got)
		}
	})
	t.Run("a slice index of 100 is refused by the Binder, 99 binds", func(t *testing.T) {
		var o order
		err := decoder.NewBinder(decoder.BindOptions{}).Bind(&o, []decoder.Field{{Name: "Items.100.Name", Value: "x"}})
		if err == nil {
			t.Error("index 100 bound")
		}
		if err := decoder.NewBinder(decoder.BindOptions{}).Bind(&o, []decoder.Field{{Name: "Items.99.Name", Value: "x"}}); err != nil || len(o.Items) != 100 {
			t.Errorf("index 99: %v, %d items", err, len(o.Items))
		}
	})
}
