// Package vectors finds the third-party test vectors the project vendors
// under testdata/ (testdata/README.md names each file's source, commit and
// licence, and testdata/refresh-vectors.sh fetches them again). They are
// part of every clone, so a missing one is a broken checkout and fails the
// test, on any machine.
//
// The vectors were first read from a folder beside the project,
// ../shared/vectors. Where that folder exists, Shared finds the file a
// vendored one was copied from, so that a test can check the two are still
// the same bytes; no test needs it.
package vectors

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cgigate/cgigate/internal/gobuild"
)

// Vendored maps each vendored file, by its path under testdata/, to the
// name of the file it was copied from under ../shared/vectors.
var Vendored = map[string]string{
	"whatwg-encoding/encodings.json":                 "whatwg-encoding/encodings.json",
	"whatwg-encoding/index-big5.txt":                 "whatwg-encoding/index-big5.txt",
	"whatwg-encoding/index-euc-kr.txt":               "whatwg-encoding/index-euc-kr.txt",
	"whatwg-encoding/index-gb18030-ranges.txt":       "whatwg-encoding/index-gb18030-ranges.txt",
	"whatwg-encoding/index-gb18030.txt":              "whatwg-encoding/index-gb18030.txt",
	"whatwg-encoding/index-iso-2022-jp-katakana.txt": "whatwg-encoding/index-iso-2022-jp-katakana.txt",
	"whatwg-encoding/index-jis0208.txt":              "whatwg-encoding/index-jis0208.txt",
	"whatwg-encoding/index-jis0212.txt":              "whatwg-encoding/index-jis0212.txt",
	"whatwg-encoding/index-windows-1252.txt":         "whatwg-encoding/index-windows-1252.txt",
	"wpt/urlencoded-parser-data.json":                "wpt-urlencoded-parser-data.json",
	"wpt/urltestdata.json":                           "wpt-urltestdata.json",
}

// Path returns the path of testdata/name in the module holding the
// working directory, and fails t when the file is not there.
func Path(t testing.TB, name string) string {
	t.Helper()
	root := moduleRoot(t)
	p := filepath.Join(root, "testdata", filepath.FromSlash(name))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("vectors: %v (testdata/ is part of the repository: is the checkout whole?)", err)
	}
	return p
}

// Read returns the contents of testdata/name; see Path.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(Path(t, name))
	if err != nil {
		t.Fatalf("vectors: %v", err)
	}
	return b
}

// Shared returns the path of the file the vendored testdata/name was
// copied from, under the nearest shared/vectors folder above the project
// (../shared/vectors beside a checkout, ../../shared/vectors beside a
// worktree under wt/), and whether that file exists. It is false in a
// user's clone, which has no such folder.
func Shared(t testing.TB, name string) (string, bool) {
	t.Helper()
	sharedName, ok := Vendored[name]
	if !ok {
		t.Fatalf("vectors: %s is not a vendored file", name)
	}
	return SharedFile(t, sharedName)
}

// SharedFile is Shared for a file of the shared folder by its own name
// there, vendored or not.
func SharedFile(t testing.TB, name string) (string, bool) {
	t.Helper()
	root := moduleRoot(t)
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		dir := filepath.Join(d, "shared", "vectors")
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			p := filepath.Join(dir, filepath.FromSlash(name))
			_, err := os.Stat(p)
			return p, err == nil
		}
		if d == filepath.Dir(d) {
			return filepath.Join(filepath.Dir(root), "shared", "vectors", filepath.FromSlash(name)), false
		}
	}
}

// moduleRoot is the nearest folder at or above the working directory
// holding go.mod.
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("vectors: %v", err)
	}
	root, err := gobuild.ModuleRoot(dir)
	if err != nil {
		t.Fatalf("vectors: %v", err)
	}
	return root
}
