package security

import (
	"net/http"
	"strings"
	"testing"
)

// NUL: a U+0000 in decoded text cuts a C string, a file name or an
// environment variable short (PHP, CVE-2006-7243; Go on Windows,
// CVE-2022-41716). The decoder replaces every NUL with U+FFFD and says so,
// so no decoded text holds one.

func TestCVE_2006_7243_NULInAValueIsReplaced(t *testing.T) {
	c := corpusCase(t, 16, "name=abc%00.txt")
	t.Run("in a query value", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			res := decoded(t, r)
			wantFields(t, res, q("name", "abc\uFFFD.txt"))
			warned(t, res, "NUL replaced by U+FFFD")
		}, alsoPrefork())
	})
	t.Run("in a name and a body value", func(t *testing.T) {
		each(t, form("a%00b=abc%00.txt"), func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), b("a\uFFFDb", "abc\uFFFD.txt"))
		})
	})
	t.Run("in a multipart file name", func(t *testing.T) {
		body := "--X\r\nContent-Disposition: form-data; name=\"f\"; filename*=UTF-8''abc%00.txt\r\n\r\nA\r\n--X--\r\n"
		each(t, request{Method: "POST", Body: []byte(body), Header: http.Header{"Content-Type": {"multipart/form-data; boundary=X"}}},
			func(t *testing.T, r response) {
				res := decoded(t, r)
				if len(res.Files) != 1 || res.Files[0].Filename != "abc\uFFFD.txt" {
					t.Errorf("files %+v", res.Files)
				}
			})
	})
}

// TestNULInAnISINDEXWordComesFromQueryString: Apache's argv word is cut at
// the NUL ("abc", a C string); the keywords come from QUERY_STRING, which
// keeps "abc%00def", and the NUL is replaced.
func TestNULInAnISINDEXWordComesFromQueryString(t *testing.T) {
	c := corpusCase(t, 22, "abc%00def")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		res := decoded(t, r)
		wantKeywords(t, res, "abc\uFFFDdef")
		warned(t, res, "NUL replaced by U+FFFD")
		differ := strings.Contains(strings.Join(res.Warnings, " "), "differ from QUERY_STRING")
		if !r.argv() && differ {
			t.Errorf("%s passes no argv, yet: %q", r.Via, res.Warnings)
		}
		if r.argv() && !differ {
			t.Errorf("Apache's argv word is cut at the NUL, so it differs from QUERY_STRING's word; no warning says so: %q", res.Warnings)
		}
	}, alsoPrefork())
}
