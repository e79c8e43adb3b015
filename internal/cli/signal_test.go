package cli_test

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/cgigate/cgigate/internal/cli"
)

func TestNotifyContextEndsOnAStopSignalNamingIt(t *testing.T) {
	tests := []struct {
		name string
		sig  syscall.Signal
		code int
		text string
	}{
		{"SIGINT (Ctrl-C) ends it with status 130", syscall.SIGINT, 130, "stopped by SIGINT"},
		{"SIGTERM ends it with status 143", syscall.SIGTERM, 143, "stopped by SIGTERM"},
		{"SIGHUP ends it with status 129", syscall.SIGHUP, 129, "stopped by SIGHUP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, stop := cli.NotifyContext(context.Background())
			defer stop()
			if err := syscall.Kill(os.Getpid(), tt.sig); err != nil {
				t.Fatal(err)
			}
			<-ctx.Done()
			se := cli.Signalled(ctx)
			if se == nil {
				t.Fatalf("cause %v, want a *SignalError", context.Cause(ctx))
			}
			if se.ExitCode() != tt.code || se.Error() != tt.text {
				t.Errorf("ExitCode %d, Error %q; want %d, %q", se.ExitCode(), se.Error(), tt.code, tt.text)
			}
		})
	}
	t.Run("a context that ends otherwise names no signal", func(t *testing.T) {
		parent, cancel := context.WithCancel(context.Background())
		ctx, stop := cli.NotifyContext(parent)
		defer stop()
		cancel()
		<-ctx.Done()
		if se := cli.Signalled(ctx); se != nil {
			t.Errorf("Signalled = %v after the parent's cancel", se)
		}
	})
}
