package bench

import (
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name      string
		stat      string
		pgrp      int
		ticks     int64
		wantError bool
	}{
		// proc(5): pid (comm) state ppid pgrp session tty tpgid flags
		// minflt cminflt majflt cmajflt utime stime cutime cstime ...
		{"a plain command's group and times are read", "4242 (php-fpm8.2) S 1 4240 4240 0 -1 4194560 100 0 0 0 7 3 2 1 20 0 1 0", 4240, 13, false},
		{"a command holding spaces and parentheses is skipped whole", "7 (a) b (c)) R 1 7 7 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0", 7, 2, false},
		{"a cut line is an error", "7 (a) R 1 7", 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := parseStat(tc.stat)
			if (err != nil) != tc.wantError || err == nil && (st.pgrp != tc.pgrp || st.ticks != tc.ticks) {
				t.Errorf("parseStat = %+v, %v; want pgrp %d ticks %d", st, err, tc.pgrp, tc.ticks)
			}
		})
	}
}

func TestSummarizeBackendsComparesWithPHPFPMInTheSameRound(t *testing.T) {
	k := func(peer string) Key { return Key{"event", 4, peer} }
	res := Results{Rounds: []map[Key]Sample{
		{k(GatewayF): {Requests: 100, RPS: 200, P99: 2 * time.Millisecond, CPU: 90 * time.Microsecond}, k(PHPFPM): {Requests: 100, RPS: 100, P99: 4 * time.Millisecond, CPU: 140 * time.Microsecond}},
		{k(GatewayF): {Requests: 100, RPS: 300, P99: 2 * time.Millisecond, CPU: 110 * time.Microsecond}, k(PHPFPM): {Requests: 100, RPS: 200, P99: 2 * time.Millisecond, CPU: 160 * time.Microsecond}},
	}}
	rows := SummarizeBackends(res)
	if len(rows) != 2 || rows[0].Peer != GatewayF || rows[1].Peer != PHPFPM {
		t.Fatalf("rows %+v", rows)
	}
	if g := rows[0]; g.VsPHP != 1.75 || g.P99VsPHP != 0.75 || g.CPU != 100*time.Microsecond {
		t.Errorf("cgigate-fcgi row %+v, want 1.75x (median of 2x and 1.5x), p99 0.75x, CPU 100 µs", g)
	}
}
