package bench_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/gobuild"
)

func ExampleParseWrk() {
	s, err := bench.ParseWrk(`  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.83ms    1.20ms  20.11ms   80.00%
  Latency Distribution
     50%    5.60ms
     99%   10.50ms
  3445 requests in 5.00s, 1.23MB read
Requests/sec:    688.12
`)
	fmt.Println(s.RPS, s.Mean, s.P99, s.Requests, err)
	// Output: 688.12 5.83ms 10.5ms 3445 <nil>
}

func ExampleParseWrkDuration() {
	d, _ := bench.ParseWrkDuration("812.00us")
	fmt.Println(d)
	// Output: 812µs
}

func ExampleMedian() {
	fmt.Println(bench.Median([]float64{0.8, 0.5, 0.9}), bench.Median([]float64{1, 2}))
	// Output: 0.8 1.5
}

func ExampleSummarize() {
	k := func(p string) bench.Key { return bench.Key{MPM: "event", Conns: 4, Peer: p} }
	rows := bench.Summarize(bench.Results{Rounds: []map[bench.Key]bench.Sample{
		{k(bench.Floor): {Requests: 1, RPS: 600}, k(bench.Gateway): {Requests: 1, RPS: 480}},
		{k(bench.Floor): {Requests: 1, RPS: 700}, k(bench.Gateway): {Requests: 1, RPS: 600}},
	}})
	for _, r := range rows {
		fmt.Printf("%s %.0f %.3f\n", r.Peer, r.RPS, r.VsFloor)
	}
	// Output:
	// c-floor 650 1.000
	// cgigate 540 0.829
}

func ExampleFormatTable() {
	bench.FormatTable(os.Stdout, []bench.Row{{Key: bench.Key{MPM: "event", Conns: 4, Peer: bench.Gateway},
		Rounds: 5, RPS: 540, Mean: 7 * time.Millisecond, P99: 21 * time.Millisecond, VsFloor: 0.83, VsGateway: 1}})
	// Output:
	// | MPM | conns | peer | req/s | mean | p99 | × C floor | × cgigate | rounds | bad |
	// |---|---:|---|---:|---:|---:|---:|---:|---:|---:|
	// | event | 4 | cgigate | 540 | 7.000 ms | 21.0 ms | 0.83x | 1.00x | 5 | 0 |
}

func ExampleFormatDuration() {
	fmt.Println(bench.FormatDuration(912*time.Microsecond), bench.FormatDuration(23400*time.Microsecond), bench.FormatDuration(145*time.Millisecond))
	// Output: 0.912 ms 23.4 ms 145 ms
}

func ExampleParseInitTrace() {
	inits, _ := bench.ParseInitTrace([]byte("init html/template @56 ms, 0.080 ms clock, 17944 bytes, 90 allocs\n"))
	fmt.Println(inits[0].Package, inits[0].Clock, inits[0].Bytes, inits[0].Allocs)
	// Output: html/template 80µs 17944 90
}

func ExampleFormatInit() {
	bench.FormatInit(os.Stdout, "cgigate", bench.InitSummary{Runs: 3, Packages: 2, Clock: time.Millisecond, Main: 2 * time.Millisecond, Bytes: 100, Allocs: 2,
		Top: []bench.Init{{Package: "html/template", Clock: 80 * time.Microsecond, Bytes: 90, Allocs: 1}}}, 1)
	// Output:
	// cgigate: 2 packages initialised; median over 3 runs: 1.000 ms of init clock in all, last init ends 2.000 ms after the runtime starts; 100 bytes in 2 allocations
	//
	// | package | clock (median) | bytes | allocs |
	// |---|---:|---:|---:|
	// | html/template | 0.080 ms | 90 | 1 |
}

func ExampleHTMLFields() {
	f, _ := bench.HTMLFields([]byte(`<table class="fields"><tr><td>q</td><td>&lt;b&gt;</td></tr></table>`))
	fmt.Printf("%q\n", f)
	// Output: [{"q" "<b>"}]
}

func ExampleJSONFields() {
	f, _ := bench.JSONFields([]byte(`{"fields":[{"name":"lang","value":"fr"}]}`))
	fmt.Printf("%q\n", f)
	// Output: [{"lang" "fr"}]
}

func ExampleSlope() {
	fmt.Println(bench.Slope([]float64{25e6, 50e6, 100e6}, []float64{12e6, 12e6, 12e6}))
	// Output: 0
}

func ExampleParseMaxRSS() {
	kb, _ := bench.ParseMaxRSS([]byte("\tMaximum resident set size (kbytes): 13260\n"))
	fmt.Println(kb)
	// Output: 13260
}

func ExampleCGIEnv() {
	for _, kv := range bench.CGIEnv("cgigate", bench.Query, "application/json") {
		if strings.HasPrefix(kv, "QUERY_STRING=") || strings.HasPrefix(kv, "HTTP_ACCEPT=") {
			fmt.Println(kv)
		}
	}
	// Output:
	// QUERY_STRING=q=caf%C3%A9+%3Cb%3E+%26+%E5%8D%B0%E5%88%B7&lang=fr
	// HTTP_ACCEPT=application/json
}

func ExampleModuleRoot() {
	wd, _ := os.Getwd()
	root, err := bench.ModuleRoot(wd)
	_, statErr := os.Stat(root + "/go.mod")
	fmt.Println(err, statErr)
	// Output: <nil> <nil>
}

// The functions below need the machine (gcc, Go, Apache, wrk, GNU time):
// these examples are compiled, not run.

func ExampleBuildPeers() {
	peers, err := bench.BuildPeers(context.Background(), os.TempDir(), ".", "")
	fmt.Println(len(peers), err)
}

func ExampleGoBuild() {
	bin, err := bench.GoBuild(context.Background(), ".", "./cmd/cgigate", os.TempDir()+"/cgigate", gobuild.CGIBin)
	fmt.Println(bin, err)
}

func ExampleMissing() {
	for _, m := range bench.Missing(bench.Interpreters) {
		fmt.Println(m)
	}
}

func ExampleStartApache() {
	dir, _ := os.MkdirTemp("", "peers-")
	defer os.RemoveAll(dir)
	peers, _ := bench.BuildPeers(context.Background(), dir, ".", "")
	fcgi, err := bench.StartFastCGI(peers[bench.GatewayF], nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fcgi.Stop()
	s, err := bench.StartApache(bench.Setup{MPM: httpdconf.MPMEvent}, peers, fcgi.Addr)
	if err != nil {
		fmt.Println(err) // apache.ErrNoApache, or what Apache said
		return
	}
	defer s.Stop()
	fmt.Println(bench.Check(s))
	res := bench.LoadRounds(context.Background(), []*bench.Server{s}, bench.Plan{Rounds: 3}, os.Stderr)
	bench.FormatTable(os.Stdout, bench.Summarize(res))
}

func ExampleStartFastCGI() {
	fcgi, err := bench.StartFastCGI("./cgigate", []string{"CGIGATE_CHARSET=utf-8"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fcgi.Stop()
	fmt.Println(fcgi.Addr)
}

func ExampleWrk() {
	s, err := bench.Wrk(context.Background(), bench.Load{URL: "http://127.0.0.1:8080/cgi-bin/cgigate?" + bench.Query, Connections: 4, Duration: 3 * time.Second})
	fmt.Println(s.RPS, err)
}

func ExampleColdStarts() {
	c, err := bench.ColdStarts(context.Background(), []bench.Program{
		{Name: bench.Floor, Argv: []string{"./c-floor"}},
		{Name: bench.Gateway, Argv: []string{"./cgigate"}},
		{Name: "cgigate, CGIGATE_CHARSET=utf-8", Argv: []string{"./cgigate"}, Env: []string{"CGIGATE_CHARSET=utf-8"}},
	}, 200)
	fmt.Println(c, err)
}

func ExampleExec() {
	t, err := bench.Exec(context.Background(), []string{"./cgigate"}, bench.CGIEnv(bench.Gateway, bench.Query, "application/json"))
	fmt.Println(t.Wall, t.CPU, err)
}

func ExampleTraceInit() {
	s, err := bench.TraceInit(context.Background(), []string{"./cgigate"}, bench.CGIEnv(bench.Gateway, bench.Query, "application/json"), 30)
	fmt.Println(s.Clock, s.Bytes, err)
}

func ExamplePeakRSS() {
	ct, _ := bench.WriteMultipart("/tmp/body", 200e6)
	m, err := bench.PeakRSS(context.Background(), "./cgigate", bench.Multipart, "/tmp/body", ct, []string{"CGIGATE_MAX_BODY=300000000"})
	fmt.Println(m.PeakKB, err)
}

func ExampleWriteURLEncoded() {
	ct, err := bench.WriteURLEncoded("/tmp/body", 10e6)
	fmt.Println(ct, err)
}

func ExampleSearchTime() {
	bench.GenerateIndex("/tmp/index", 10000, 1)
	s, err := bench.SearchTime(context.Background(), "./cgigate", "/tmp/index", 10000, []string{bench.Needle, bench.Hay}, 15)
	fmt.Println(s.Median, err)
}

func ExampleParseSetup() {
	for _, name := range []string{"event", "prefork", "prefork+cgid", "prefork+cgi", "event+cgi"} {
		s, err := bench.ParseSetup(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: MPM %s, module %q\n", s, s.MPM, s.CGIModule)
	}
	// Output:
	// event: MPM event, module ""
	// prefork: MPM prefork, module ""
	// prefork+cgid: MPM prefork, module "cgid"
	// prefork: MPM prefork, module "cgi"
	// bench: setup "event+cgi": httpdconf: invalid CGIModule "cgi": mod_cgi forks from the worker, which a threaded MPM makes unsafe: use cgid
}

func ExampleServer_Targets() {
	s := &bench.Server{FastCGI: true} // as StartApache returns it, given a FastCGI address
	fmt.Println(s.Targets())
	// Output: [c-floor go-hello go-deps go-nethttpcgi perl-cgipm python-cgi cgigate cgigate-fcgi]
}
