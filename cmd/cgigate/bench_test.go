package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/gobuild"
)

// BenchmarkCGIStartup runs the gateway as a CGI process per request, as
// Apache does, beside the smallest Go CGI program (testdata/peer), and
// reports the gateway's time per request as a multiple of the peer's.
//
//	go test -run '^$' -bench CGIStartup ./cmd/cgigate
func BenchmarkCGIStartup(b *testing.B) {
	peer := filepath.Join(b.TempDir(), "peer")
	if out, err := gobuild.Command(context.Background(), "", "./testdata/peer", peer, "").CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	for _, tc := range []struct {
		name  string
		query string
		kv    []string
	}{
		{"form-json", "a=1&b=%E5%8D%B0", []string{acceptJSON, "application/json"}},
		{"form-html", "a=1&b=%E5%8D%B0", nil},
		{"isindex-html", "foo+bar", nil},
		{"prompt-html", "", nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			env := cgiEnv(append([]string{"QUERY_STRING", tc.query}, tc.kv...)...)
			var envs []string
			for k, v := range env {
				envs = append(envs, k+"="+v)
			}
			run := func(path string) time.Duration {
				cmd := exec.Command(path)
				cmd.Env = envs
				cmd.Stdin = strings.NewReader("")
				start := time.Now()
				if out, err := cmd.Output(); err != nil || !strings.HasPrefix(string(out), "Status: 200") {
					b.Fatalf("%s: %v %q", path, err, out)
				}
				return time.Since(start)
			}
			var gw, pr time.Duration
			for b.Loop() {
				gw += run(bin)
				pr += run(peer)
			}
			b.ReportMetric(float64(gw)/float64(pr), "x-peer")
			b.ReportMetric(float64(gw.Microseconds())/float64(b.N), "gateway-µs/req")
			b.ReportMetric(float64(pr.Microseconds())/float64(b.N), "peer-µs/req")
		})
	}
}
