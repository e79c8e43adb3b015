package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
)

// Harness is a testing.TB for a command, so that cmd/cgibench starts Apache
// with internal/apachetest (written for tests) instead of a second Apache
// launcher. Fatal and Skip end the function given to Run, as they end a
// test; cleanups run when Run returns, last registered first.
//
// testing.TB has an unexported method, so Harness embeds a nil TB to
// satisfy it; every exported method is defined here, so the nil is never
// called.
type Harness struct {
	testing.TB
	name string
	log  io.Writer

	mu       sync.Mutex
	cleanups []func()
	failed   bool
	skipped  bool
	msgs     []string
}

// stop is what Fatal and Skip panic with; Run recovers it.
type stop struct{}

// Run calls fn with a Harness named name that logs to log, runs its
// cleanups and returns an error holding the messages of Fatal, Error and
// Skip, if any were called.
func Run(name string, log io.Writer, fn func(t testing.TB)) (err error) {
	h := &Harness{name: name, log: log}
	if h.log == nil {
		h.log = io.Discard
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stop); !ok {
					h.record(true, fmt.Sprintf("panic: %v", r))
				}
			}
		}()
		fn(h)
	}()
	<-done
	h.runCleanups()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failed || h.skipped {
		kind := "failed"
		if !h.failed {
			kind = "skipped"
		}
		return &RunError{Name: name, Kind: kind, Messages: append([]string(nil), h.msgs...)}
	}
	return nil
}

// RunError is what Run returns when its function failed or skipped.
type RunError struct {
	Name     string
	Kind     string // "failed" or "skipped"
	Messages []string
}

func (e *RunError) Error() string {
	s := "bench: " + e.Name + " " + e.Kind
	for _, m := range e.Messages {
		s += ": " + m
	}
	return s
}

func (h *Harness) runCleanups() {
	for {
		h.mu.Lock()
		n := len(h.cleanups)
		if n == 0 {
			h.mu.Unlock()
			return
		}
		f := h.cleanups[n-1]
		h.cleanups = h.cleanups[:n-1]
		h.mu.Unlock()
		func() {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(stop); !ok {
						h.record(true, fmt.Sprintf("panic in cleanup: %v", r))
					}
				}
			}()
			f()
		}()
	}
}

func (h *Harness) record(fail bool, msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if fail {
		h.failed = true
	}
	h.msgs = append(h.msgs, msg)
	fmt.Fprintf(h.log, "%s: %s\n", h.name, msg)
}

func (h *Harness) Cleanup(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cleanups = append(h.cleanups, f)
}
func (h *Harness) Error(args ...any) { h.record(true, fmt.Sprint(args...)) }
func (h *Harness) Errorf(format string, args ...any) {
	h.record(true, fmt.Sprintf(format, args...))
}
func (h *Harness) Fail() { h.mu.Lock(); h.failed = true; h.mu.Unlock() }
func (h *Harness) FailNow() {
	h.Fail()
	panic(stop{})
}
func (h *Harness) Failed() bool { h.mu.Lock(); defer h.mu.Unlock(); return h.failed }
func (h *Harness) Fatal(args ...any) {
	h.record(true, fmt.Sprint(args...))
	panic(stop{})
}
func (h *Harness) Fatalf(format string, args ...any) {
	h.record(true, fmt.Sprintf(format, args...))
	panic(stop{})
}
func (h *Harness) Helper()                          {}
func (h *Harness) Log(args ...any)                  { fmt.Fprintf(h.log, "%s: %s\n", h.name, fmt.Sprint(args...)) }
func (h *Harness) Logf(format string, args ...any)  { h.Log(fmt.Sprintf(format, args...)) }
func (h *Harness) Name() string                     { return h.name }
func (h *Harness) Attr(key, value string)           {}
func (h *Harness) Context() context.Context         { return context.Background() }
func (h *Harness) Output() io.Writer                { return h.log }
func (h *Harness) Skip(args ...any)                 { h.skip(fmt.Sprint(args...)) }
func (h *Harness) Skipf(format string, args ...any) { h.skip(fmt.Sprintf(format, args...)) }
func (h *Harness) SkipNow()                         { h.skip("skipped") }
func (h *Harness) Skipped() bool                    { h.mu.Lock(); defer h.mu.Unlock(); return h.skipped }
func (h *Harness) skip(msg string) {
	h.mu.Lock()
	h.skipped = true
	h.msgs = append(h.msgs, msg)
	h.mu.Unlock()
	panic(stop{})
}

// Setenv sets an environment variable until Run returns.
func (h *Harness) Setenv(key, value string) {
	old, had := os.LookupEnv(key)
	os.Setenv(key, value)
	h.Cleanup(func() {
		if had {
			os.Setenv(key, old)
		} else {
			os.Unsetenv(key)
		}
	})
}

// Chdir changes the working directory until Run returns.
func (h *Harness) Chdir(dir string) {
	old, err := os.Getwd()
	if err != nil {
		h.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		h.Fatal(err)
	}
	h.Cleanup(func() { os.Chdir(old) })
}

// TempDir returns a new folder removed when Run returns.
func (h *Harness) TempDir() string {
	d, err := os.MkdirTemp("", "cgibench-")
	if err != nil {
		h.Fatal(err)
	}
	h.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// ArtifactDir returns a folder like TempDir (there is no -artifacts flag).
func (h *Harness) ArtifactDir() string { return h.TempDir() }

var _ testing.TB = (*Harness)(nil)
