package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// StopSignals are the signals that ask a command to stop: Ctrl-C
// (SIGINT), kill's default (SIGTERM) and a closed terminal (SIGHUP).
var StopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// SignalError is the cause of a context that NotifyContext ended: the
// signal that asked the command to stop.
type SignalError struct {
	Signal os.Signal
}

func (e *SignalError) Error() string { return "stopped by " + signalName(e.Signal) }

// ExitCode is 128 plus the signal's number (130 for SIGINT, 143 for
// SIGTERM, 129 for SIGHUP), what a shell reports for a process that a
// signal ended: a command that stops cleanly on a signal still says it
// did not finish.
func (e *SignalError) ExitCode() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// NotifyContext returns a context that ends, with a *SignalError as its
// cause (context.Cause), when one of StopSignals arrives. The signals
// stay caught until stop is called, so that a second Ctrl-C does not kill
// the command while it stops what it started (every stop is bounded).
func NotifyContext(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, StopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			cancel(&SignalError{Signal: s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// Signalled returns the *SignalError that ended ctx, or nil when no
// signal did.
func Signalled(ctx context.Context) *SignalError {
	var se *SignalError
	if errors.As(context.Cause(ctx), &se) {
		return se
	}
	return nil
}
