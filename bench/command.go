package bench

import (
	"context"
	"os/exec"
	"syscall"

	"github.com/cgigate/cgigate/internal/apache"
)

// command is exec.CommandContext for the programs bench runs, with the
// child in a process group of its own that is killed whole when ctx ends:
// the gateway that /usr/bin/time runs dies with it, rather than running
// on after the caller has stopped. A terminal's Ctrl-C then reaches only
// the caller, which ends ctx.
func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return inGroup(exec.CommandContext(ctx, name, args...))
}

// inGroup makes cmd (from exec.CommandContext, not started) start in its
// own process group and kills that group when its context ends. WaitDelay
// bounds the wait for a pipe still held by a process that left the group.
func inGroup(cmd *exec.Cmd) *exec.Cmd {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = apache.StopBound
	return cmd
}
