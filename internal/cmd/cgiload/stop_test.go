package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/proctest"
)

// TestASignalStopsTheRunAndWhatItStarted runs the real command with
// -apache, stops it with a signal while it builds the gateway and while
// it loads its Apache, and checks, from /proc, that every process it
// started has exited, that its ServerRoot is removed, that it printed
// the report of what was answered (under load), and that it exited 128
// plus the signal's number with the signal named once on stderr.
func TestASignalStopsTheRunAndWhatItStarted(t *testing.T) {
	apachetest.Binary(t) // skips (fails under CI=true) without Apache
	bin := apachetest.BuildGo(t, ".")
	gateway := apachetest.BuildGo(t, "../../../cmd/cgigate")
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		proctest.SignalCase
		report bool
	}{
		{
			"SIGINT while it builds the gateway stops the build",
			proctest.SignalCase{Dir: root, Args: []string{"-apache", "-n", "10"}, At: func(t *testing.T, p *proctest.Proc) bool {
				return proctest.WaitFor(t, p.Cmd.Process.Pid, "go", time.Minute) != 0
			}, Sig: syscall.SIGINT, Code: 130},
			false,
		},
		{
			"SIGTERM under load stops Apache and prints the report so far",
			proctest.SignalCase{Dir: root, Args: []string{"-apache", "-gateway", gateway, "-n", "100000", "-c", "2", "-timeout", "10m"}, At: func(t *testing.T, p *proctest.Proc) bool {
				return p.WaitStderr("cgiload: Apache ", apache.StartBound+time.Minute)
			}, Sig: syscall.SIGTERM, Code: 143},
			true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := proctest.RunSignalCase(t, bin, tt.SignalCase)
			if tt.report && (!strings.Contains(p.Stdout(), "FAIL: run stopped by SIGTERM after ") || !strings.HasSuffix(p.Stdout(), "FAIL\n")) {
				t.Errorf("no report of the run so far on stdout:\n%s", p.Stdout())
			}
		})
	}
}
