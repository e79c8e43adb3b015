package main

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/bench"
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
		proctest.SignalCase
	}{
		{
			"SIGINT while it builds the peers stops the build",
			proctest.SignalCase{Dir: "", Args: []string{"-only", "cold"}, At: func(t *testing.T, p *proctest.Proc) bool {
				return proctest.WaitFor(t, p.Cmd.Process.Pid, "go", startBound) != 0
			}, Sig: syscall.SIGINT, Code: 130},
		},
		{
			"SIGTERM during the cold starts stops them",
			proctest.SignalCase{Dir: "", Args: []string{"-only", "cold,init", "-cold-runs", "100000"}, At: func(t *testing.T, p *proctest.Proc) bool {
				return p.WaitStderr("cgibench: cold starts", startBound)
			}, Sig: syscall.SIGTERM, Code: 143},
		},
		{
			"SIGHUP during the load rounds stops wrk, Apache and cgigate -fcgi",
			proctest.SignalCase{Dir: "", Args: []string{"-only", "load,cold", "-mpm", "event", "-conns", "1", "-rounds", "1000", "-duration", "1s", "-warmup", "1s", "-budget", "1h"}, At: func(t *testing.T, p *proctest.Proc) bool {
				apachetest.Binary(t)
				if _, err := exec.LookPath("wrk"); err != nil {
					missing.SkipOrFail(t, "wrk (Debian package wrk)")
				}
				return proctest.WaitFor(t, p.Cmd.Process.Pid, "wrk", startBound) != 0
			}, Sig: syscall.SIGHUP, Code: 129},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proctest.RunSignalCase(t, bin, tt.SignalCase)
		})
	}
}
