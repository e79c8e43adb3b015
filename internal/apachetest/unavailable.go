package apachetest

import (
	"os"
	"testing"
)

// SkipOrFail stops t because something it needs from the machine (a
// server, a browser, a file) is absent: a skip on a developer's machine, a
// failure under CI=true, where the CI script is expected to provide it.
func SkipOrFail(t testing.TB, reason string) {
	t.Helper()
	if InCI(os.Getenv) {
		t.Fatalf("%s (CI=true, so this is a failure: .ci/run must install it)", reason)
	}
	t.Skip(reason)
}

// InCI reports whether the environment read through getenv is a CI run
// (CI=true, as CI systems and this project's CI set it).
func InCI(getenv func(string) string) bool {
	return getenv("CI") == "true"
}
