package missing

import (
	"fmt"
	"runtime"
	"testing"
)

// recorder stands in for a test: it keeps what SkipOrFail does to it, and
// stops the goroutine at a Skip or Fatalf as testing.T does.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Skip(args ...any) {
	r.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// stop runs SkipOrFail(r, reason) in a goroutine of its own and waits for
// it to stop.
func (r *recorder) stop(reason string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		SkipOrFail(r, reason)
	}()
	<-done
}

func TestSkipOrFail(t *testing.T) {
	tests := []struct {
		name, ci        string
		skipped, failed string
	}{
		{"outside CI it skips, saying what is missing after the prefix", "", "missing tool or file: uchardet is not installed", ""},
		{"with CI=false it still skips", "false", "missing tool or file: uchardet is not installed", ""},
		{"under CI=true it fails instead", "true", "", "uchardet is not installed (CI=true, so this is a failure: .ci/run must install it)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			r := &recorder{TB: t}
			r.stop("uchardet is not installed")
			if r.skipped != tc.skipped || r.failed != tc.failed {
				t.Errorf("skipped %q, failed %q; want %q, %q", r.skipped, r.failed, tc.skipped, tc.failed)
			}
		})
	}
}

func TestOnlyCIEqualsTrueIsCI(t *testing.T) {
	for _, v := range []string{"", "false", "1", "TRUE"} {
		if InCI(func(string) string { return v }) {
			t.Errorf("CI=%q counted as CI; only CI=true does", v)
		}
	}
	if !InCI(func(k string) string { return map[string]string{"CI": "true"}[k] }) {
		t.Error("CI=true not counted as CI")
	}
}
