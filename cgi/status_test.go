package cgi_test

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
)

func TestStatusTextIsNetHTTPs(t *testing.T) {
	for _, st := range []int{cgi.StatusOK, cgi.StatusSeeOther, cgi.StatusBadRequest, cgi.StatusForbidden, cgi.StatusNotFound, cgi.StatusUnprocessableEntity, cgi.StatusMethodNotAllowed, cgi.StatusRequestTimeout,
		cgi.StatusRequestEntityTooLarge, cgi.StatusRequestURITooLong, cgi.StatusUnsupportedMediaType, cgi.StatusRequestHeaderFieldsTooLarge,
		cgi.StatusInternalServerError, cgi.StatusServiceUnavailable} {
		if got, want := cgi.StatusText(st), http.StatusText(st); got != want {
			t.Errorf("StatusText(%d) = %q; net/http says %q", st, got, want)
		}
	}
	t.Run("a status the gateway does not send still has a reason phrase", func(t *testing.T) {
		for _, st := range []int{102, 226, 308, 418, 511} {
			if cgi.StatusText(st) == "" {
				t.Errorf("StatusText(%d) is empty; the Status line needs a phrase (RFC 3875 § 6.3.3)", st)
			}
		}
	})
}

// The package exists without net/http so that a CGI process does not pay
// for it at start-up; an import anywhere below it would undo that.
func TestPackageDoesNotLinkNetHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "net/http" || strings.HasPrefix(p, "net/http/") || p == "crypto/tls" {
			t.Errorf("package cgi links %s", p)
		}
	}
}
