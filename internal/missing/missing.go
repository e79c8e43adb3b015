// Package missing stops a test that needs something the machine lacks (a
// server, a browser, a command, a file): a skip on a developer's machine, a
// failure under CI=true, where .ci/run installs everything the tests use.
//
// Every such skip's message begins with Prefix, so that a reader of the
// test output tells these skips from the others: internal/testcount, which
// .ci/run pipes `go test -json` through, counts them and fails a CI run
// that has any.
package missing

import (
	"os"
	"testing"
)

// Prefix begins the message of every skip for something missing.
const Prefix = "missing tool or file: "

// SkipOrFail stops t because what reason names is missing: it skips with
// Prefix+reason, or fails under CI=true.
func SkipOrFail(t testing.TB, reason string) {
	t.Helper()
	if InCI(os.Getenv) {
		t.Fatalf("%s (CI=true, so this is a failure: .ci/run must install it)", reason)
	}
	t.Skip(Prefix + reason)
}

// InCI reports whether the environment read through getenv is a CI run
// (CI=true, as CI systems and this project's CI set it).
func InCI(getenv func(string) string) bool {
	return getenv("CI") == "true"
}
