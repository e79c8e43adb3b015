package apache

import (
	"fmt"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// Bounds on waiting for a server. They are not assertions about speed:
// a server that has not answered, or not stopped, by then is broken.
const (
	// StartBound is how long Start waits for Apache to answer HTTP.
	StartBound = 30 * time.Second
	// StopBound is how long Stop waits after SIGTERM before it kills the
	// process group.
	StopBound = 15 * time.Second
)

// Child is a server process started in its own process group, so that a
// terminal's Ctrl-C reaches only the Go program, which stops the child by
// its pid, and so that a child which ignores SIGTERM can be killed together
// with everything it forked. internal/cmd/serve runs its Go CGI host with it too.
type Child struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error // set before done is closed

	once sync.Once
}

// StartChild starts cmd (not yet started) in a process group of its own;
// name is how errors refer to it, e.g. "apache".
//
// The child also gets SIGTERM from the kernel when this process dies
// without stopping it (killed, or a test binary's panic), so that no
// server outlives the program that started it. Pdeathsig follows the
// thread that started the child, not the process (go.dev/issue/27505):
// the child is started and waited for by one goroutine locked to its
// thread, which therefore lives as long as the child.
func StartChild(name string, cmd *exec.Cmd) (*Child, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	c := &Child{name: name, cmd: cmd, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		c.err = cmd.Wait()
		close(c.done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return c, nil
}

// Name returns the name given to StartChild.
func (c *Child) Name() string { return c.name }

// Pid is the child's process id, which is also its process group's.
func (c *Child) Pid() int { return c.cmd.Process.Pid }

// Done is closed when the child has exited, for a caller that waits on
// the child and on something else at once (a signal, a context).
func (c *Child) Done() <-chan struct{} { return c.done }

// Err returns how the child exited (cmd.Wait's error); it is meaningful
// once Done is closed.
func (c *Child) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// Stop sends SIGTERM to the child's pid (Apache then stops its own
// children and the cgid daemon) and waits; after StopBound it kills the
// child's whole process group and says so. A child that had exited before
// Stop is an error too: the server died while in use. Only the first call
// acts; later ones return nil.
func (c *Child) Stop() error {
	var err error
	c.once.Do(func() { err = c.stop() })
	return err
}

func (c *Child) stop() error {
	pid := c.cmd.Process.Pid
	select {
	case <-c.done:
		return fmt.Errorf("%s (pid %d) had already exited: %v", c.name, pid, c.err)
	default:
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return fmt.Errorf("SIGTERM to %s pid %d: %w", c.name, pid, err)
	}
	select {
	case <-c.done:
		return nil
	case <-time.After(StopBound):
	}
	syscall.Kill(-pid, syscall.SIGKILL)
	<-c.done
	return fmt.Errorf("%s (pid %d) ignored SIGTERM for %v and was killed", c.name, pid, StopBound)
}
