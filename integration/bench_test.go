package integration

import (
	"net/http"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
)

// BenchmarkGatewayUnderApache times one ISINDEX request and one form POST
// answered by the gateway under each way of running it (mod_cgi, mod_cgid,
// mod_proxy_fcgi) against the peer: the echo CGI, the smallest Go CGI
// program, run by the same Apache (ns/op covers one of each). x-echo is the gateway's time per request
// over the peer's (1 would mean the gateway costs nothing beyond a Go
// process start).
//
//	go test -run '^$' -bench GatewayUnderApache ./integration
func BenchmarkGatewayUnderApache(b *testing.B) {
	modes := []struct {
		name string
		mpm  httpdconf.MPM
		fcgi bool
	}{
		{"prefork-mod_cgi", httpdconf.MPMPrefork, false},
		{"event-mod_cgid", httpdconf.MPMEvent, false},
		{"event-mod_proxy_fcgi", httpdconf.MPMEvent, true},
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			opts := apachetest.Options{MPM: m.mpm, LogLevel: "warn",
				CGI: map[string]string{"cgigate": gatewayBin, "echo": echoBin}}
			if m.fcgi {
				opts.FastCGI = startFastCGI(b)
				opts.FastCGIPath = gatewayPath
			}
			s := apachetest.Start(b, opts)
			requests := []struct{ method, target, ct, body string }{
				{"GET", "?%E5%8D%B0%E5%88%B7+gateway", "", ""},
				{"POST", "?n=1", "application/x-www-form-urlencoded", "a=%E3%83%86%E3%82%B9%E3%83%88&b=two+words"},
			}
			var gw, peer time.Duration
			for i := 0; b.Loop(); i++ {
				rq := requests[i%len(requests)]
				var body []byte
				if rq.body != "" {
					body = []byte(rq.body)
				}
				for _, p := range []struct {
					path string
					sum  *time.Duration
				}{{gatewayPath, &gw}, {"/cgi-bin/echo", &peer}} {
					t0 := time.Now()
					r, err := do(s, rq.method, p.path+rq.target, rq.ct, body, "application/json")
					*p.sum += time.Since(t0)
					if err != nil || r.Status != http.StatusOK {
						b.Fatalf("%s %s: %v status %d %s", rq.method, p.path, err, r.Status, r.Body)
					}
				}
			}
			if peer > 0 {
				b.ReportMetric(float64(gw)/float64(peer), "x-echo")
			}
		})
	}
}
