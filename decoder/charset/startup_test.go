package charset

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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
		if os.Getenv("CI") == "true" {
			t.Fatal("no go tool (required when CI=true)")
		}
		t.Skip("no go tool")
	}
	return g
}

// moduleRoot is the directory holding go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package directory")
		}
		dir = parent
	}
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
		// A program of its own, outside the module: the test binary would
		// count the _test.go files' variables as the package's.
		root := moduleRoot(t)
		dir := t.TempDir()
		sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{
			"go.mod": "module startup\n\ngo 1.26\n\nrequire github.com/cgigate/cgigate v0.0.0\n\nreplace github.com/cgigate/cgigate => " + root + "\n",
			"go.sum": string(sum),
			"main.go": `package main

import "github.com/cgigate/cgigate/decoder/charset"

func main() { println(charset.MustLookup("euc-jp").Name()) }
`,
		}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		bin := filepath.Join(dir, "startup")
		build := exec.Command(g, "build", "-mod=mod", "-o", bin, ".")
		build.Dir = dir
		build.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=", "GOWORK=off")
		if out, err := build.CombinedOutput(); err != nil {
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
