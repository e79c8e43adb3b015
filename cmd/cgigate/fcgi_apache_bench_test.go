//go:build !cgionly

package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/missing"
)

// BenchmarkFastCGIUnderApache serves the gateway over FastCGI in this
// process behind a real Apache (event MPM, mod_proxy_fcgi) and loads it
// with wrk, so that -cpuprofile profiles the server as Apache drives it,
// with no profiler linked into the product. Each iteration is one wrk run
// of the benchmark's FORM GET with HTML out at 4 and 16 connections, with
// mod_proxy_fcgi opening a connection per request and with enablereuse=on;
// it reports this process's CPU per request (getrusage), Apache's (its
// process group, /proc), req/s and p99.
//
//	go test -run '^$' -bench FastCGIUnderApache -benchtime 2x -cpuprofile cpu.out ./cmd/cgigate
func BenchmarkFastCGIUnderApache(b *testing.B) {
	if _, err := exec.LookPath("wrk"); err != nil {
		missing.SkipOrFail(b, "wrk (apt-get install wrk)")
	}
	bin, err := apache.FindBinary(os.Getenv, exec.LookPath, func(p string) bool { _, err := os.Stat(p); return err == nil })
	if err != nil {
		missing.SkipOrFail(b, err.Error())
	}
	cfg, err := loadConfig(map[string]string{})
	if err != nil {
		b.Fatal(err)
	}
	// The collector as cgigate -fcgi sets it, for this process while the
	// benchmark runs.
	gc, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(gc)
	tuneGC(map[string]string{})
	b.Cleanup(func() { debug.SetGCPercent(gc); debug.SetMemoryLimit(limit) })
	// One listener per way of proxying, so that Apache keeps a worker
	// (and its connection pool) for each.
	variants := []struct{ name, params string }{
		{"connection-per-request", " enablereuse=off"},
		{"enablereuse", " enablereuse=on"},
	}
	directives := ""
	addrs := make([]string, len(variants))
	for i, v := range variants {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { ln.Close() })
		go serveFCGIOn(ln, cfg)
		addrs[i] = ln.Addr().String()
		directives += fmt.Sprintf("ProxyPass \"/v%d\" \"fcgi://%s/\"%s\n", i, addrs[i], v.params)
	}
	s, err := apache.Start(bin, apache.Options{
		// FastCGI set loads mod_proxy_fcgi; its own path is not loaded.
		Config:     httpdconf.Config{MPM: httpdconf.MPMEvent, LogLevel: "warn", FastCGI: addrs[0], FastCGIPath: "/unused"},
		Directives: directives,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Stop() })
	for _, conns := range []int{4, 16} {
		for i, v := range variants {
			b.Run(fmt.Sprintf("%s/c=%d", v.name, conns), func(b *testing.B) {
				load := bench.Load{URL: fmt.Sprintf("%s/v%d?%s", s.URL, i, bench.Query), Connections: conns,
					Duration: 3 * time.Second, Header: []string{"Accept: text/html"}}
				var reqs int
				var self, httpd time.Duration
				var rps, p99 []float64
				for b.Loop() {
					c0, a0 := selfCPU(), apacheCPU(b, s)
					smp, err := bench.Wrk(context.Background(), load)
					if err != nil {
						b.Fatal(err)
					}
					if smp.Non2xx > 0 || smp.Errors > 0 || smp.Requests == 0 {
						b.Fatalf("%d non-2xx answers, %d errors, %d requests", smp.Non2xx, smp.Errors, smp.Requests)
					}
					self += selfCPU() - c0
					httpd += apacheCPU(b, s) - a0
					reqs += smp.Requests
					rps = append(rps, smp.RPS)
					p99 = append(p99, float64(smp.P99)/float64(time.Millisecond))
				}
				b.ReportMetric(float64(self.Nanoseconds())/float64(reqs), "cpu-ns/req")
				b.ReportMetric(float64(httpd.Nanoseconds())/float64(reqs), "apache-cpu-ns/req")
				b.ReportMetric(bench.Median(rps), "req/s")
				b.ReportMetric(bench.Median(p99), "p99-ms")
			})
		}
	}
}

// selfCPU is this process's user and system time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// apacheCPU is the CPU time of Apache's processes so far.
func apacheCPU(b *testing.B, s *apache.Server) time.Duration {
	d, err := bench.GroupCPU(s.Pid())
	if err != nil {
		b.Fatal(err)
	}
	return d
}
