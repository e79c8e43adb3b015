package security

import (
	"net/http"
	"testing"

	"github.com/cgigate/cgigate/cgi"
)

// Location: in a CGI answer, "Location: /path" with no Status is a local
// redirect (RFC 3875 § 6.2.2): Apache serves /path itself, internally, as
// if the client had asked for it, past any access control in front of
// the gateway (CVE-2024-38476). The gateway sends no Location at all; the
// header writer refuses the name whatever its value.

func TestCVE_2024_38476_NoLocationFromInput(t *testing.T) {
	c := corpusCase(t, 64, "next=/cgi-bin/admin.cgi")
	t.Run("the next field is data, and the answer is the gateway's own", func(t *testing.T) {
		for _, query := range []string{c.Input, "next=/cgi-bin/echo", "redirect=http://evil.example/", "Location=/cgi-bin/echo"} {
			each(t, request{Query: query}, func(t *testing.T, r response) {
				res := decoded(t, r)
				if len(res.Fields) != 1 {
					t.Errorf("fields %q", res.Fields)
				}
			}, alsoPrefork())
		}
	})
	t.Run("a Location a handler sets is never written, absolute or local", func(t *testing.T) {
		for _, loc := range []string{"/cgi-bin/echo", "http://127.0.0.1/", "//evil.example/"} {
			out := serveWith(t, func(w cgi.ResponseWriter) { w.Header()["Location"] = []string{loc} })
			if _, ok := out.Header["Location"]; ok || out.Status != http.StatusOK {
				t.Errorf("Location %q: %d %q", loc, out.Status, out.Head)
			}
		}
	})
}
