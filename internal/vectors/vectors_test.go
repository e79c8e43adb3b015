package vectors

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// vendoredDirs are the folders of testdata/ that hold third-party vectors.
var vendoredDirs = []string{"whatwg-encoding", "wpt"}

// TestVendoredFilesAreTheSharedOnes checks each vendored file against the
// copy it was taken from, byte for byte, where ../shared/vectors exists. In
// a clone without it there is nothing to compare, and the vendored file is
// the one the tests read either way.
func TestVendoredFilesAreTheSharedOnes(t *testing.T) {
	for name := range Vendored {
		t.Run(name+" is the shared copy, byte for byte", func(t *testing.T) {
			got := Read(t, name)
			p, ok := Shared(t, name)
			if !ok {
				t.Logf("no %s to compare with", p)
				return
			}
			want, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("testdata/%s (%d bytes) differs from %s (%d bytes): vendor it again, or say in testdata/README.md why they differ", name, len(got), p, len(want))
			}
		})
	}
}

// TestEveryVendoredFileIsListedWithItsSource checks that Vendored names
// exactly the files of the vendored folders, and that testdata/README.md
// names each of them, so that none is kept without its source and licence.
func TestEveryVendoredFileIsListedWithItsSource(t *testing.T) {
	root := filepath.Dir(filepath.Dir(Path(t, "wpt/urltestdata.json")))
	var onDisk []string
	for _, d := range vendoredDirs {
		err := filepath.WalkDir(filepath.Join(root, d), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, err := filepath.Rel(root, p)
			onDisk = append(onDisk, filepath.ToSlash(rel))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var listed []string
	for name := range Vendored {
		listed = append(listed, name)
	}
	slices.Sort(onDisk)
	slices.Sort(listed)
	if !slices.Equal(onDisk, listed) {
		t.Errorf("files under testdata/{%s}: %q\nVendored lists: %q", strings.Join(vendoredDirs, ","), onDisk, listed)
	}
	readme := string(Read(t, "README.md"))
	for _, name := range listed {
		if !strings.Contains(readme, filepath.Base(name)) {
			t.Errorf("testdata/README.md does not name %s", name)
		}
	}
}

// TestTheRefreshScriptFetchesTheCommitsTheREADMENames keeps the two places
// that name the upstream commits in step.
func TestTheRefreshScriptFetchesTheCommitsTheREADMENames(t *testing.T) {
	script := string(Read(t, "refresh-vectors.sh"))
	readme := string(Read(t, "README.md"))
	commits := regexp.MustCompile(`\b[0-9a-f]{40}\b`)
	inScript := commits.FindAllString(script, -1)
	if len(inScript) != 3 {
		t.Fatalf("refresh-vectors.sh names %d commits, want 3 (whatwg/encoding, wpt, ada): %q", len(inScript), inScript)
	}
	for _, c := range inScript {
		if !strings.Contains(readme, c) {
			t.Errorf("refresh-vectors.sh fetches at %s, which testdata/README.md does not name", c)
		}
	}
	for _, c := range commits.FindAllString(readme, -1) {
		if !slices.Contains(inScript, c) {
			t.Errorf("testdata/README.md names commit %s, which refresh-vectors.sh does not fetch", c)
		}
	}
}
