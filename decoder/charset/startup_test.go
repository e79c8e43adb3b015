package charset

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/gobuild"
	"github.com/cgigate/cgigate/internal/missing"
)

// goTool finds the go command, skipping the test without one (failing it
// when CI=true).
func goTool(t *testing.T) string {
	t.Helper()
	g := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(g); err == nil {
		return g
	}
	g, err := exec.LookPath("go")
	if err != nil {
		missing.SkipOrFail(t, "no go tool")
	}
	return g
}

// A CGI process starts for every request: what a package builds at init,
// every request pays, whether it looks a charset up or not.
func TestLinkingTheCharsetPackageCostsAProcessNothingAtStartUp(t *testing.T) {
	g := goTool(t)
	t.Run("the package links neither htmlindex, ianaindex nor x/text/language", func(t *testing.T) {
		out, err := exec.Command(g, "list", "-deps", ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps: %v\n%s", err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			switch dep {
			case "golang.org/x/text/encoding/htmlindex", "golang.org/x/text/encoding/ianaindex",
				"golang.org/x/text/language", "golang.org/x/text/internal/language":
				t.Errorf("decoder/charset depends on %s, whose init every process would pay", dep)
			}
		}
	})
	t.Run("a program that looks a label up runs no init code of the package", func(t *testing.T) {
		bin := filepath.Join(t.TempDir(), "startup")
		if out, err := gobuild.Command(context.Background(), "", "./testdata/startup", bin, "").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		run := exec.Command(bin)
		run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		out, err := run.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "euc-jp") {
			t.Fatalf("the program failed: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "init runtime") {
			t.Fatalf("GODEBUG=inittrace=1 printed no trace:\n%s", out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "init github.com/cgigate/cgigate/decoder/charset ") ||
				strings.Contains(line, "htmlindex") || strings.Contains(line, "ianaindex") || strings.Contains(line, "x/text/language") {
				t.Errorf("start-up runs %s", line)
			}
		}
	})
}
