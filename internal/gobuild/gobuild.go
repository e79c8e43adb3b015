// Package gobuild is the one way the project's tools and tests build a Go
// program to run: static (CGO_ENABLED=0, as README deploys cgigate), with no
// VCS stamp (git refuses to read a clone owned by another user), with the
// go command that runs them.
package gobuild

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
)

// CGIBin is the build tags of cgigate as README deploys it in cgi-bin:
// without -http and -fcgi, and so without net/http, which would cost every
// CGI process its start-up (BENCHMARKS.md). The FastCGI mode needs the
// default build ("").
const CGIBin = "cgionly"

// Command is "go build -buildvcs=false -tags TAGS -o OUT PKG" run in dir
// ("" for the current folder) with CGO_ENABLED=0 added to the environment;
// the caller may replace Env (keeping CGO_ENABLED=0) and runs it. The go
// command is the one on PATH, else the toolchain's own. When ctx ends,
// the go command and the programs it runs are killed; a caller that
// cleans up after a killed build sets GOTMPDIR to a folder it removes.
func Command(ctx context.Context, dir, pkg, out, tags string) *exec.Cmd {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.CommandContext(ctx, goBin, "build", "-buildvcs=false", "-tags", tags, "-o", out, pkg)
	// When ctx ends, the compilers and the linker go with the go
	// command: it runs in a process group of its own, killed whole.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd
}

// ModuleRoot returns the folder holding go.mod at or above dir: where the
// tools build from, and where internal/vectors finds testdata/.
func ModuleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if d == filepath.Dir(d) {
			return "", fmt.Errorf("no go.mod at or above %s", dir)
		}
	}
}
