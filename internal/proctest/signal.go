package proctest

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/apache"
)

// SignalCase is a command stopped by a signal at some point of its run.
type SignalCase struct {
	Dir  string   // the folder to run it in, "" for the current one
	Args []string // its arguments
	// At waits until the command is at the point to stop it at, and says
	// whether it got there.
	At   func(t *testing.T, p *Proc) bool
	Sig  syscall.Signal
	Code int // the exit status it must give
}

// RunSignalCase runs bin as c says with a TMPDIR of its own (made by
// apache.TempDir, so that Apache's children reach what it puts there),
// signals it once At returns, and checks that it exited with c.Code,
// naming the signal ("stopped by") once on stderr, and that what it
// started is gone (CheckGone, over the processes it had and its TMPDIR).
// It returns the process, for the caller's own checks of its output.
func RunSignalCase(t *testing.T, bin string, c SignalCase) *Proc {
	t.Helper()
	tmp, err := apache.TempDir("signal-case-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	p := Start(t, c.Dir, []string{"TMPDIR=" + tmp}, bin, c.Args...)
	if !c.At(t, p) {
		t.Fatalf("%s did not get there; stderr:\n%s", bin, p.Stderr())
	}
	family := Descendants(t, p.Cmd.Process.Pid)
	code := p.Stop(t, c.Sig, 2*apache.StopBound+10*time.Second)
	if code != c.Code || strings.Count(p.Stderr(), "stopped by") != 1 {
		t.Errorf("exit %d, want %d, and the signal named once on stderr:\n%s", code, c.Code, p.Stderr())
	}
	CheckGone(t, family, tmp, apache.StopBound)
	return p
}
