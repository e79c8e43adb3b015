package search

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/gobuild"
)

// The gateway links this package, and a CGI process starts for every
// request: what the package builds at init, every request pays, searching
// or not.
func TestLinkingSearchAllocatesNothingAtStartUp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "startup")
	if out, err := gobuild.Command(context.Background(), "", "./testdata/startup", bin, "").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := exec.Command(bin)
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := run.CombinedOutput()
	if err != nil || !strings.Contains(string(out), IndexName) {
		t.Fatalf("the program failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "init runtime") {
		t.Fatalf("GODEBUG=inittrace=1 printed no trace:\n%s", out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "init github.com/cgigate/cgigate/search ") && !strings.HasSuffix(line, " 0 bytes, 0 allocs") {
			t.Errorf("start-up runs %s", line)
		}
	}
}
