//go:build !cgionly

package main

import (
	"math"
	"runtime/debug"
	"strconv"
	"testing"
)

// cgigate -fcgi collects at GOGC=400 under a soft memory limit, unless
// the operator's environment sets either.
func TestFastCGITunesTheCollector(t *testing.T) {
	gc, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(gc)
	t.Cleanup(func() { debug.SetGCPercent(gc); debug.SetMemoryLimit(limit) })
	tests := []struct {
		name  string
		env   map[string]string
		gc    int
		limit int64
	}{
		{"an environment without GOGC or GOMEMLIMIT gets the server's", map[string]string{}, fcgiGCPercent, fcgiMemoryLimit},
		{"GOGC in the environment is kept", map[string]string{"GOGC": "50"}, 50, fcgiMemoryLimit},
		{"GOMEMLIMIT in the environment is kept", map[string]string{"GOMEMLIMIT": "1GiB"}, fcgiGCPercent, 1 << 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// As the runtime read them at start.
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			if v, ok := tc.env["GOGC"]; ok {
				n, _ := strconv.Atoi(v)
				debug.SetGCPercent(n)
			}
			if _, ok := tc.env["GOMEMLIMIT"]; ok {
				debug.SetMemoryLimit(1 << 30)
			}
			tuneGC(tc.env)
			if got := debug.SetGCPercent(-1); got != tc.gc {
				t.Errorf("GOGC %d, want %d", got, tc.gc)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.limit {
				t.Errorf("memory limit %d, want %d", got, tc.limit)
			}
		})
	}
}
