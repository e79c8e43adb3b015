package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/missing"
	"github.com/cgigate/cgigate/internal/proctest"
)

// startBound bounds how long cgibench may take to reach the point a test
// stops it at: it builds six programs first, on a machine that may be
// busy. A bound on a wait, not an assertion about speed.
const startBound = 5 * time.Minute

// TestASignalStopsEverythingAtAnyPoint runs the real command, stops it
// with a signal while it builds, while it times cold starts (a part that
// used to keep the signal and run on) and while wrk loads its servers,
// and checks, from /proc, that every process it started has exited, that
// it removed its folders, and that it exited 128 plus the signal's
// number with the signal named once.
func TestASignalStopsEverythingAtAnyPoint(t *testing.T) {
	if miss := bench.Missing(bench.Interpreters); len(miss) > 0 {
		missing.SkipOrFail(t, strings.Join(miss, "; "))
	}
	bin := apachetest.BuildGo(t, ".")
	tests := []struct {
		name string
		args []string
		// at waits until cgibench is at the point to stop it at.
		at   func(t *testing.T, p *proctest.Proc) bool
		sig  syscall.Signal
		code int
	}{
		{
			"SIGINT while it builds the peers stops the build",
			[]string{"-only", "cold"},
			func(t *testing.T, p *proctest.Proc) bool {
				return proctest.WaitFor(t, p.Cmd.Process.Pid, "go", startBound) != 0
			},
			syscall.SIGINT, 130,
		},
		{
			"SIGTERM during the cold starts stops them",
			[]string{"-only", "cold,init", "-cold-runs", "100000"},
			func(t *testing.T, p *proctest.Proc) bool {
				return p.WaitStderr("cgibench: cold starts", startBound)
			},
			syscall.SIGTERM, 143,
		},
		{
			"SIGHUP during the load rounds stops wrk, Apache and cgigate -fcgi",
			[]string{"-only", "load,cold", "-mpm", "event", "-conns", "1", "-rounds", "1000", "-duration", "1s", "-warmup", "1s", "-budget", "1h"},
			func(t *testing.T, p *proctest.Proc) bool {
				apachetest.Binary(t)
				if _, err := exec.LookPath("wrk"); err != nil {
					missing.SkipOrFail(t, "wrk (Debian package wrk)")
				}
				return proctest.WaitFor(t, p.Cmd.Process.Pid, "wrk", startBound) != 0
			},
			syscall.SIGHUP, 129,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Its folders go under a TMPDIR of the test's own, found
			// empty or not at the end; Apache's children must reach it.
			tmp, err := apache.TempDir("cgibench-stop-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(tmp) })
			p := proctest.Start(t, []string{"TMPDIR=" + tmp}, bin, tt.args...)
			if !tt.at(t, p) {
				t.Fatalf("cgibench did not get there; stderr:\n%s", p.Stderr())
			}
			family := proctest.Descendants(t, p.Cmd.Process.Pid)
			if err := p.Cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			code, exited := p.Wait(2*apache.StopBound + 10*time.Second)
			if !exited {
				t.Fatalf("cgibench still running after %v; stderr:\n%s", tt.sig, p.Stderr())
			}
			if code != tt.code || strings.Count(p.Stderr(), "stopped by") != 1 {
				t.Errorf("exit %d, want %d, and the signal named once; stderr:\n%s", code, tt.code, p.Stderr())
			}
			// What it started is gone: the processes it had, and any that
			// runs a program from, or a configuration in, its folders.
			left := proctest.WaitExited(family, apache.StopBound)
			left = append(left, proctest.Naming(t, tmp)...)
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			if len(left) > 0 {
				t.Errorf("still running after cgibench exited: %v", left)
			}
			if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("left in its TMPDIR: %v", names)
			}
		})
	}
}
