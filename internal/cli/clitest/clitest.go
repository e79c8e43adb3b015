// Package clitest checks, on a built binary, the command line that package
// cli gives every command: -help and -h on stdout with exit 0, -version on
// stdout naming what "go version -m" reads from the same binary, and a bad
// flag named once on stderr with exit 2.
package clitest

import (
	"bufio"
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Result is what one run of a command gave.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Run runs bin with args in the folder dir ("" for the current one) and
// env added to this process's environment.
func Run(t *testing.T, dir string, env []string, bin string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return r
}

// BuildInfo is what "go version -m bin" says of the binary: the main
// module's path and version, and the build settings (vcs.revision...).
type BuildInfo struct {
	Path, Version string
	Settings      map[string]string
}

// ReadBuildInfo runs "go version -m" on bin.
func ReadBuildInfo(t *testing.T, bin string) BuildInfo {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m %s: %v", bin, err)
	}
	bi := BuildInfo{Settings: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(strings.TrimSpace(sc.Text()), "\t")
		switch {
		case len(f) >= 3 && f[0] == "mod":
			bi.Path, bi.Version = f[1], f[2]
		case len(f) == 2 && f[0] == "build":
			if k, v, ok := strings.Cut(f[1], "="); ok {
				bi.Settings[k] = v
			}
		}
	}
	if bi.Path == "" {
		t.Fatalf("go version -m %s names no main module:\n%s", bin, out)
	}
	return bi
}

// CheckCommandLine runs the command bin, whose name is name, in dir as a
// user would and checks what package cli promises: -help and -h print a
// usage holding each of usage (and -version) on stdout, with nothing on
// stderr and exit 0; -version prints one line on stdout that starts with
// name and names the module, its version and, when the binary has one,
// the VCS revision, as "go version -m" reads them; an unknown flag is
// named exactly once on stderr, with nothing on stdout and exit 2.
func CheckCommandLine(t *testing.T, dir, bin, name string, usage ...string) {
	t.Helper()
	for _, h := range []string{"-help", "-h"} {
		t.Run(h+" prints the usage on stdout and exits 0", func(t *testing.T) {
			r := Run(t, dir, nil, bin, h)
			if r.Code != 0 || r.Stderr != "" {
				t.Errorf("%s %s: exit %d, stderr %q; want 0 and nothing", name, h, r.Code, r.Stderr)
			}
			for _, w := range append(usage, "-version") {
				if !strings.Contains(r.Stdout, w) {
					t.Errorf("%s %s: stdout lacks %q:\n%s", name, h, w, r.Stdout)
				}
			}
		})
	}
	t.Run("-version prints what the build recorded on stdout and exits 0", func(t *testing.T) {
		r := Run(t, dir, nil, bin, "-version")
		if r.Code != 0 || r.Stderr != "" || strings.Count(r.Stdout, "\n") != 1 {
			t.Fatalf("%s -version: exit %d, stdout %q, stderr %q; want 0 and one line on stdout", name, r.Code, r.Stdout, r.Stderr)
		}
		bi := ReadBuildInfo(t, bin)
		want := []string{name + " " + bi.Version + " (", bi.Path}
		if rev := bi.Settings["vcs.revision"]; rev != "" {
			want = append(want, "revision "+rev, bi.Settings["vcs.time"])
		}
		for _, w := range want {
			if !strings.Contains(r.Stdout, w) {
				t.Errorf("%s -version = %q, which lacks %q (go version -m: %+v)", name, r.Stdout, w, bi)
			}
		}
		if !strings.HasPrefix(r.Stdout, want[0]) {
			t.Errorf("%s -version = %q, want it to start with %q", name, r.Stdout, want[0])
		}
	})
	t.Run("an unknown flag is named once on stderr, exit 2", func(t *testing.T) {
		const bad = "-no-such-flag"
		r := Run(t, dir, nil, bin, bad)
		if r.Code != 2 || r.Stdout != "" || strings.Count(r.Stderr, bad) != 1 {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want 2, nothing on stdout and the flag named once on stderr", name, bad, r.Code, r.Stdout, r.Stderr)
		}
	})
}
