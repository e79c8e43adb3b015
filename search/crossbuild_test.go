package search

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// TestThePackageBuildsOnTheUnixesItBuiltOn: the index's files are opened
// as descriptors and told apart by fstat's Stat_t, whose fields are not
// named alike on every Unix (Mtim on Linux and OpenBSD, Mtimespec on
// macOS, FreeBSD and NetBSD): the package must still build on the Unixes
// it built on when it used os.File and os.FileInfo.
func TestThePackageBuildsOnTheUnixesItBuiltOn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the standard library for other systems")
	}
	g := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(g); err != nil {
		if g, err = exec.LookPath("go"); err != nil {
			missing.SkipOrFail(t, "no go tool")
		}
	}
	for _, target := range [][2]string{{"darwin", "arm64"}, {"freebsd", "amd64"}, {"netbsd", "amd64"}, {"openbsd", "amd64"}, {"linux", "arm64"}} {
		cmd := exec.Command(g, "build", ".")
		cmd.Env = append(os.Environ(), "GOOS="+target[0], "GOARCH="+target[1], "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=%s GOARCH=%s go build: %v\n%s", target[0], target[1], err, out)
		}
	}
}
