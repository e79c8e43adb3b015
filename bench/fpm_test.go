package bench

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/apachetest"
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

func TestSummarizeBackendsComparesTheSocketPairWithPHPFPMOnItsSocket(t *testing.T) {
	k := func(peer string) Key { return Key{"event", 4, peer} }
	res := Results{Rounds: []map[Key]Sample{{
		k(PHPFPM):       {Requests: 100, RPS: 100, P99: 4 * time.Millisecond},
		k(GatewayFUnix): {Requests: 100, RPS: 300, P99: 2 * time.Millisecond},
		k(PHPFPMUnix):   {Requests: 100, RPS: 200, P99: 1 * time.Millisecond},
	}}}
	tests := []struct {
		name                         string
		peer                         string
		vs, p99Vs, vsUnix, p99VsUnix float64
	}{
		{"cgigate on a socket is measured against both pools", GatewayFUnix, 3, 0.5, 1.5, 2},
		{"PHP-FPM on a socket is its own reference", PHPFPMUnix, 2, 0.25, 1, 1},
		{"PHP-FPM over TCP is measured against its socket", PHPFPM, 1, 1, 0.5, 4},
	}
	rows := SummarizeBackends(res)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := slices.IndexFunc(rows, func(r BackendRow) bool { return r.Peer == tc.peer })
			if i < 0 {
				t.Fatalf("no %s row in %+v", tc.peer, rows)
			}
			if r := rows[i]; r.VsPHP != tc.vs || r.P99VsPHP != tc.p99Vs || r.VsPHPUnix != tc.vsUnix || r.P99VsPHPUnix != tc.p99VsUnix {
				t.Errorf("row %+v, want %vx, p99 %vx against php-fpm, %vx, p99 %vx against php-fpm-unix", r, tc.vs, tc.p99Vs, tc.vsUnix, tc.p99VsUnix)
			}
		})
	}
}

// TestSocketBackendsAnswerThroughApache starts cgigate -fcgi and PHP-FPM
// over TCP and on Unix sockets as the load rounds do (the bench runs as
// root, Apache's children as www-data) and checks that each socket path
// answers its own backend's page, the one its TCP twin answers: cgigate's
// and fpm.php's hold the same fields, so that alone would not tell them
// apart.
func TestSocketBackendsAnswerThroughApache(t *testing.T) {
	apachetest.Binary(t) // skips (fails under CI=true) without Apache
	phpFPM, err := FindPHPFPM()
	if err != nil {
		apachetest.SkipOrFail(t, err.Error())
	}
	dir, err := apache.TempDir("bench-sock-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	gateway, err := GoBuild(context.Background(), testModuleRoot(t), "./cmd/cgigate", filepath.Join(dir, GatewayF), "")
	if err != nil {
		t.Fatal(err)
	}
	var b Backends
	stop := func(p interface{ Stop() error }, err error) {
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := p.Stop(); err != nil {
				t.Error(err)
			}
		})
	}
	b.FastCGI, err = StartFastCGI(gateway, nil)
	stop(b.FastCGI, err)
	b.FastCGIUnix, err = StartFastCGIUnix(gateway, filepath.Join(dir, "cgigate-fcgi.sock"), nil)
	stop(b.FastCGIUnix, err)
	b.PHPFPM, err = StartPHPFPM(phpFPM, dir)
	stop(b.PHPFPM, err)
	b.PHPFPMUnix, err = StartPHPFPMUnix(phpFPM, dir)
	stop(b.PHPFPMUnix, err)
	s, err := StartBackends(Setup{MPM: httpdconf.MPMEvent}, nil, b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("%v\n%s", err, s.Apache.ErrorLog())
		}
	})
	client := &http.Client{Timeout: 30 * time.Second}
	get := func(t *testing.T, target, accept string) []byte {
		t.Helper()
		body, err := fetch(client, s.URL(target), accept)
		if err == nil {
			err = checkBody(target, accept, body)
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", s.URL(target), err, s.Apache.ErrorLog())
		}
		return body
	}
	if bytes.Equal(get(t, GatewayF, "text/html"), get(t, PHPFPM, "text/html")) {
		t.Fatal("cgigate and fpm.php answer the same page: which backend answers cannot be told")
	}
	tests := []struct{ name, target, twin, accept string }{
		{"cgigate on a socket answers cgigate's HTML page", GatewayFUnix, GatewayF, "text/html"},
		{"cgigate on a socket answers cgigate's JSON", GatewayFUnix, GatewayF, "application/json"},
		{"PHP-FPM on a socket answers fpm.php's HTML page", PHPFPMUnix, PHPFPM, "text/html"},
		{"PHP-FPM on a socket answers fpm.php's JSON", PHPFPMUnix, PHPFPM, "application/json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !slices.Contains(s.Targets(), tc.target) {
				t.Errorf("the load rounds leave %s out: targets %v", tc.target, s.Targets())
			}
			if _, ok := s.backendCPU(tc.target); !ok {
				t.Errorf("no CPU read for %s's process group", tc.target)
			}
			got, want := get(t, tc.target, tc.accept), get(t, tc.twin, tc.accept)
			if !bytes.Equal(got, want) {
				t.Errorf("%s answers %.200q, not %s's %.200q\n%s", tc.target, got, tc.twin, want, s.Apache.ErrorLog())
			}
		})
	}
}
