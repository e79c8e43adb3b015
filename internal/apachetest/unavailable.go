package apachetest

import (
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// SkipOrFail stops t because something it needs from the machine (a
// server, a browser, a file) is absent: missing.SkipOrFail, a skip whose
// message begins with missing.Prefix on a developer's machine and a
// failure under CI=true.
func SkipOrFail(t testing.TB, reason string) {
	t.Helper()
	missing.SkipOrFail(t, reason)
}
