// Package vectors finds the test vectors kept outside the repository, in
// the shared/vectors folder beside the project's root (../shared/vectors).
// A user's clone has no such folder: tests then skip, saying why, except
// under CI=true, where a missing vector file fails the run.
package vectors

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cgigate/cgigate/internal/gobuild"
)

// Path returns the path of the named file under shared/vectors, or skips
// (fails, under CI=true) the test when it is absent.
func Path(t testing.TB, name string) string {
	t.Helper()
	root, err := projectRoot()
	if err != nil {
		t.Fatalf("vectors: %v", err)
	}
	p := filepath.Join(root, "..", "shared", "vectors", name)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("vectors: %s is missing (CI=true): %v", p, err)
		}
		t.Skipf("vectors: %s is absent (it ships beside the project, not in it): %v", p, err)
	}
	return p
}

// Read returns the contents of the named vector file; see Path.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// projectRoot is the nearest folder at or above the working directory
// holding go.mod.
func projectRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return gobuild.ModuleRoot(dir)
}
