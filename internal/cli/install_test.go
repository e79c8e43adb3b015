package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/cli/clitest"
	"github.com/cgigate/cgigate/internal/gobuild"
)

// TestInstallGivesTheProductCommandsThatRunAnywhere runs what README tells
// a user to run, "go install ./cmd/...", into an empty GOBIN: it must
// install the three product commands and no development tool, and each
// must do its job from a folder outside the module, where no go.mod is.
func TestInstallGivesTheProductCommandsThatRunAnywhere(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := gobuild.ModuleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	gobin := t.TempDir()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	install := exec.Command(goBin, "install", "./cmd/...")
	install.Dir = root
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/...: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(gobin)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if want := []string{"cgigate", "httpdconf", "urldecode"}; !slices.Equal(got, want) {
		t.Fatalf("go install ./cmd/... installed %q, want exactly %q", got, want)
	}

	away := t.TempDir() // no go.mod at or above it
	if _, err := gobuild.ModuleRoot(away); err == nil {
		t.Fatalf("%s is inside a module; the test needs a folder outside one", away)
	}
	bin := func(name string) string { return filepath.Join(gobin, name) }
	jobs := []struct {
		name, cmd string
		env       []string
		args      []string
		want      string
	}{
		{"cgigate answers a CGI request", "cgigate",
			[]string{"GATEWAY_INTERFACE=CGI/1.1", "REQUEST_METHOD=GET", "QUERY_STRING=a+b", "HTTP_ACCEPT=application/json", "SERVER_PROTOCOL=HTTP/1.1"},
			nil, `"keywords": [`},
		{"urldecode decodes a query", "urldecode", nil, []string{"q=%E5%8D%B0"}, `"q" = "印"`},
		{"httpdconf renders a config", "httpdconf", nil, []string{"-root", "/srv/cgigate"}, `ServerRoot "/srv/cgigate"`},
	}
	for _, j := range jobs {
		t.Run(j.name+" outside the module", func(t *testing.T) {
			r := clitest.Run(t, away, j.env, bin(j.cmd), j.args...)
			if r.Code != 0 || !strings.Contains(r.Stdout, j.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0 and %q", r.Code, r.Stdout, r.Stderr, j.want)
			}
		})
		t.Run(j.cmd+"'s command line outside the module", func(t *testing.T) {
			clitest.CheckCommandLine(t, away, bin(j.cmd), j.cmd)
		})
	}
}
