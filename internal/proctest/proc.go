package proctest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Proc is a command a test started and watches: its output as it comes,
// and its exit.
type Proc struct {
	Cmd    *exec.Cmd
	stdout buffer
	stderr buffer
	done   chan struct{}
	code   int // the exit status, -1 for a signal's death; set before done closes
}

// Start starts bin with args in the folder dir ("" for the current one)
// and env added to this process's environment. A process still running
// when the test ends is killed.
func Start(t testing.TB, dir string, env []string, bin string, args ...string) *Proc {
	t.Helper()
	p := &Proc{Cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.Cmd.Dir = dir
	p.Cmd.Env = append(p.Cmd.Environ(), env...)
	p.Cmd.Stdout, p.Cmd.Stderr = &p.stdout, &p.stderr
	if err := p.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := p.Cmd.Wait()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			p.code = ee.ExitCode()
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		p.Cmd.Process.Kill()
		<-p.done
	})
	return p
}

// Stdout and Stderr return what the process has written so far.
func (p *Proc) Stdout() string { return p.stdout.String() }
func (p *Proc) Stderr() string { return p.stderr.String() }

// WaitStderr waits, at most bound, for s to appear on the process's
// stderr, and says whether it did (false too if the process exited
// without it).
func (p *Proc) WaitStderr(s string, bound time.Duration) bool {
	deadline := time.Now().Add(bound)
	for !strings.Contains(p.Stderr(), s) {
		select {
		case <-p.done:
			return strings.Contains(p.Stderr(), s)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// Wait waits, at most bound, for the process to exit, and returns its
// exit status (-1 if a signal killed it) and whether it exited.
func (p *Proc) Wait(bound time.Duration) (code int, exited bool) {
	select {
	case <-p.done:
		return p.code, true
	case <-time.After(bound):
		return 0, false
	}
}

// buffer is a bytes.Buffer that the process's output goroutine and the
// test read and write at once.
type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Stop sends sig to the process and waits, at most bound, for it to
// exit; it returns the exit status, and fails t if the process is still
// running by then.
func (p *Proc) Stop(t testing.TB, sig os.Signal, bound time.Duration) int {
	t.Helper()
	if err := p.Cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	code, exited := p.Wait(bound)
	if !exited {
		t.Fatalf("%s still running %v after %v; stderr:\n%s", p.Cmd.Path, bound, sig, p.Stderr())
	}
	return code
}

// CheckGone fails t unless, within bound, every process of family has
// exited, no process names folder in its command line, and folder is
// empty: what a stopped command started is gone, the children it had
// when it was stopped, those it started later, and its files. Processes
// still running are killed.
func CheckGone(t testing.TB, family []int, folder string, bound time.Duration) {
	t.Helper()
	left := WaitExited(family, bound)
	left = append(left, Naming(t, folder)...)
	for _, pid := range left {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if len(left) > 0 {
		t.Errorf("still running after the command exited: %v", left)
	}
	entries, err := os.ReadDir(folder)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) > 0 {
		t.Errorf("left in %s: %v", folder, names)
	}
}
