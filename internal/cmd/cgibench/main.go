// Command cgibench measures cgigate beside its peers (a C floor, Perl
// CGI.pm, Python cgi.FieldStorage, plain Go net/http/cgi) doing the same
// job under a real Apache, and prints a Markdown report: the load table
// (req/s, mean and p99 latency, ratios to the C floor and to cgigate, both
// MPMs, 4 and 16 connections, cgigate -fcgi beside the CGI mode), the cold
// start from exec to exit, what Go's package initialisers cost, the peak
// RSS of large bodies and the time of an ISINDEX search over generated
// documents; with -only omega, the site search beside Xapian Omega. Run
// it from the module (it builds the Go programs):
//
//	go run ./internal/cmd/cgibench > report.md
//	go run ./internal/cmd/cgibench -only cold,init
//
// Everything is on 127.0.0.1 and bounded: wrk runs for -duration, at most
// -rounds rounds, no round starting past -budget. See BENCHMARKS.md.
//
// SIGINT (Ctrl-C), SIGTERM or SIGHUP stops it at any point: the program
// running is killed, the servers are stopped, the temporary folders are
// removed, and it exits 128 plus the signal's number (130, 143, 129).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/cli"
	"github.com/cgigate/cgigate/internal/gobuild"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	only        []string
	plan        bench.Plan
	setups      []bench.Setup
	gateway     string
	raw         string
	coldRuns    int
	countRuns   int
	initRuns    int
	multipartMB []float64
	urlencMB    []float64
	searchDocs  []int
	searchRuns  int
	omegaDocs   []int
	omegaRuns   int
	plot        string // folder for the PNG charts, or ""
}

// parts run by default, in this order; optional ones only when -only
// names them.
var (
	parts    = []string{"load", "cold", "counts", "init", "mem", "search"}
	optional = []string{"omega"}
)

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stdout, stderr)
	if err != nil {
		return cli.Exit(stderr, "cgibench", err)
	}
	ctx, stop := cli.NotifyContext(context.Background())
	defer stop()
	err = report(ctx, o, stdout, stderr)
	// A signal's end is said once, whatever the part it cut short made
	// of it (a killed child, a context error).
	if se := cli.Signalled(ctx); se != nil {
		fmt.Fprintf(stderr, "cgibench: %v: servers stopped, temporary folders removed\n", se)
		return se.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(stderr, "cgibench:", err)
		return 1
	}
	return 0
}

const usageText = `usage: cgibench [flags] > report.md

Measures cgigate beside its peers (a C floor, Perl CGI.pm, Python
cgi.FieldStorage, Go net/http/cgi) under a real Apache on 127.0.0.1 and
prints a Markdown report on stdout, progress on stderr: load (wrk), cold
start, page faults and context switches per process, package
initialisation, peak RSS of large bodies, ISINDEX search; with -only
omega, the site search beside Xapian Omega (Debian's xapian-omega).
It builds the Go programs, so it runs from the module's root (go run
./internal/cmd/cgibench). SIGINT, SIGTERM or SIGHUP stops it at any
point, servers stopped and temporary folders removed. Exit status: 0
done, 1 failure, 2 usage, 128+N stopped by signal N (130 Ctrl-C, 143
SIGTERM, 129 SIGHUP).
`

// parse reads the command line.
func parse(args []string, stdout, stderr io.Writer) (options, error) {
	fl := flag.NewFlagSet("cgibench", flag.ContinueOnError)
	cli.SetUsage(fl, usageText)
	var o options
	only := fl.String("only", strings.Join(parts, ","), "parts to run, of "+strings.Join(parts, ",")+" and, only when named, omega (cgigate beside Xapian Omega)")
	fl.IntVar(&o.plan.Rounds, "rounds", 5, "load rounds (each runs every target once)")
	fl.DurationVar(&o.plan.Duration, "duration", 3*time.Second, "one wrk run")
	fl.DurationVar(&o.plan.Warmup, "warmup", time.Second, "unrecorded wrk run per target before the rounds")
	fl.DurationVar(&o.plan.Budget, "budget", 15*time.Minute, "no load round starts past this")
	conns := fl.String("conns", "4,16", "wrk connection counts")
	mpms := fl.String("mpm", "event,prefork", "Apache setups: MPMs with their own CGI module (event: mod_cgid, prefork: mod_cgi), or prefork+cgid")
	fl.StringVar(&o.gateway, "gateway", "", "a prebuilt cgigate (default: build ./cmd/cgigate with CGO_ENABLED=0)")
	fl.StringVar(&o.raw, "raw", "", "write every load sample as JSON to `FILE`")
	fl.IntVar(&o.coldRuns, "cold-runs", 200, "cold-start runs per program")
	fl.IntVar(&o.countRuns, "count-runs", 50, "runs per program and request for the page-fault and context-switch counts")
	fl.IntVar(&o.initRuns, "init-runs", 30, "GODEBUG=inittrace=1 runs")
	mp := fl.String("mem-multipart", "25,50,100,200", "multipart upload sizes in MB (10^6 bytes)")
	ue := fl.String("mem-urlencoded", "1.25,2.5,5,10", "urlencoded body sizes in MB")
	docs := fl.String("search-docs", "1000,2500,5000,10000", "generated index sizes")
	fl.IntVar(&o.searchRuns, "search-runs", 15, "searches per index size")
	omegaDocs := fl.String("omega-docs", "10000,100000", "sizes of the generated sites of the omega part")
	fl.IntVar(&o.omegaRuns, "omega-runs", 10, "runs of each query per engine for the omega part's CPU per query")
	fl.StringVar(&o.plot, "plot", "", "write the memory and search figures as PNG charts (memory-multipart.png, memory-urlencoded.png, search.png) into `DIR`")
	if err := cli.Parse(fl, args, stdout, stderr); err != nil {
		return o, err
	}
	o.only = strings.Split(*only, ",")
	for _, p := range o.only {
		if !slices.Contains(parts, p) && !slices.Contains(optional, p) {
			return o, fmt.Errorf("-only %q: want parts of %s", p, strings.Join(slices.Concat(parts, optional), ","))
		}
	}
	var err error
	if o.plan.Connections, err = ints(*conns); err == nil {
		if o.multipartMB, err = floats(*mp); err == nil {
			if o.urlencMB, err = floats(*ue); err == nil {
				if o.searchDocs, err = ints(*docs); err == nil {
					o.omegaDocs, err = ints(*omegaDocs)
				}
			}
		}
	}
	if err != nil {
		return o, err
	}
	for _, m := range strings.Split(*mpms, ",") {
		setup, err := bench.ParseSetup(m)
		if err != nil {
			return o, fmt.Errorf("-mpm: %w", err)
		}
		o.setups = append(o.setups, setup)
	}
	// The charts are written last: a folder that cannot be made fails
	// now, not after the load rounds.
	if o.plot != "" {
		if err := os.MkdirAll(o.plot, 0o755); err != nil {
			return o, fmt.Errorf("-plot: %w", err)
		}
	}
	return o, nil
}

// referencesText says what the references are, under each table that has
// them.
const referencesText = bench.GoHello + " and " + bench.GoDeps + " are references, not peers: a Go program that prints a fixed answer, and the same with cgigate's dependencies (html/template, mime/multipart, encoding/json, x/text, x/net/idna, gorilla/schema) linked and initialised but unused."

func (o options) want(part string) bool { return slices.Contains(o.only, part) }

// report writes the parts o asks for to w and progress lines to
// progress. Servers and temporary folders are gone when it returns; an
// error ends it, except a failure to write -raw, returned at the end.
// When ctx ends, the program running is killed and report returns as
// soon as it has stopped what it started; the load rounds done by then
// are still written.
func report(ctx context.Context, o options, w, progress io.Writer) error {
	root, err := os.Getwd()
	if err == nil {
		root, err = bench.ModuleRoot(root)
	}
	if err != nil {
		return err
	}
	build, err := apache.TempDir("cgibench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(build)
	if slices.Equal(o.only, []string{"omega"}) {
		// Omega's part needs only the gateway, not the peers.
		gateway := o.gateway
		if gateway == "" {
			gateway, err = bench.GoBuild(ctx, root, "./cmd/cgigate", filepath.Join(build, bench.Gateway), gobuild.CGIBin)
			if err != nil {
				return err
			}
		}
		fcgi, err := bench.GoBuild(ctx, root, "./cmd/cgigate", filepath.Join(build, bench.GatewayF), "")
		if err != nil {
			return err
		}
		machine(w)
		return sideBySide(ctx, w, progress, gateway, fcgi, o)
	}
	if miss := bench.Missing(bench.Interpreters); len(miss) > 0 {
		return fmt.Errorf("missing: %s", strings.Join(miss, "; "))
	}
	peers, err := bench.BuildPeers(ctx, build, root, o.gateway)
	if err != nil {
		return err
	}
	var late error
	argv := map[string][]string{}
	for name, p := range peers {
		argv[name] = []string{p}
	}
	machine(w)

	if o.want("load") {
		fmt.Fprintln(progress, "cgibench: load rounds")
		backends, stopBackends, err := fastCGIPeers(build, peers, progress)
		defer stopBackends()
		if err != nil {
			return err
		}
		var servers []*bench.Server
		for _, m := range o.setups {
			s, err := bench.StartBackends(m, peers, backends)
			if err != nil {
				return err
			}
			defer s.Stop()
			if errs := bench.Check(s); len(errs) > 0 {
				return errors.Join(errs...)
			}
			servers = append(servers, s)
		}
		res := bench.LoadRounds(ctx, servers, o.plan, progress)
		rows := bench.Summarize(res)
		if o.raw != "" {
			late = writeRaw(o.raw, res)
		}
		fmt.Fprintf(w, "## Load under Apache (wrk, %d rounds of %v per target, interleaved)\n\n", len(res.Rounds), o.plan.Duration)
		fmt.Fprintf(w, "Request: `GET /cgi-bin/PEER?%s` with `Accept: text/html`. Medians over rounds; ratios are medians of per-round ratios.\n", bench.Query)
		fmt.Fprintf(w, "%s Their ratio to the C floor is the most any Go CGI program reaches here.\n\n", referencesText)
		bench.FormatTable(w, rows)
		fmt.Fprintln(w)
		againstReferences(w, rows)
		fcgiVsCGI(w, rows)
		fmt.Fprintln(w, "cgigate -fcgi against PHP-FPM (the bench's pool: pm=static, 4 workers, opcache on; bench/peers/fpm.php), each over TCP on loopback and on a Unix socket (-unix), cgigate proxied with enablereuse=on as httpdconf renders it, PHP-FPM without, as mod_proxy_fcgi's manual and Debian's php8.2-fpm.conf proxy it, and Apache serving cgigate's page as a file, same server and round; CPU per request is the backend's own (/proc/PID/stat of its process group), Apache's not counted:")
		fmt.Fprintln(w)
		bench.FormatBackends(w, bench.SummarizeBackends(res))
		fmt.Fprintln(w)
		// The servers of a stopped run go at once, not after the
		// parts that follow were skipped.
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if o.want("cold") {
		fmt.Fprintln(progress, "cgibench: cold starts")
		var progs []bench.Program
		// The references bound what a Go program can reach: the runtime
		// alone, then with cgigate's dependencies initialised.
		for _, name := range []string{bench.Floor, bench.GoHello, bench.GoDeps, bench.GoCGI} {
			progs = append(progs, bench.Program{Name: name, Argv: argv[name]})
		}
		// cgigate with the environment its Apache configuration gives
		// it, and without; the deployment that names its charset skips
		// the sniffer; the default build (with -http and -fcgi, so
		// net/http) is what the cgionly tag saves.
		progs = append(progs,
			bench.Program{Name: bench.Gateway, Argv: argv[bench.Gateway], Env: bench.DeployedEnv},
			bench.Program{Name: bench.Gateway + " (no GOMAXPROCS set)", Argv: argv[bench.Gateway]},
			bench.Program{Name: bench.Gateway + " (CGIGATE_CHARSET=utf-8)", Argv: argv[bench.Gateway], Env: append([]string{"CGIGATE_CHARSET=utf-8"}, bench.DeployedEnv...)},
			bench.Program{Name: bench.Gateway + " (default build, not cgionly)", Argv: argv[bench.GatewayF], Env: bench.DeployedEnv})
		for _, name := range []string{bench.CGIPM, bench.Python} {
			progs = append(progs, bench.Program{Name: name, Argv: argv[name]})
		}
		colds, err := bench.ColdStarts(ctx, progs, o.coldRuns)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "## Cold start (exec to exit, FORM GET, JSON out, %d runs each, interleaved)\n\n", o.coldRuns)
		fmt.Fprintln(w, "Wall: fork in the Go parent to reaped exit. CPU: the child's user + system time (getrusage), what bounds req/s when the cores are the limit.")
		fmt.Fprintln(w, referencesText)
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Page faults and context switches: medians of the same runs (getrusage's minflt + majflt, nvcsw + nivcsw).")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| program | wall (median) | × C floor (median of per-run ratios) | CPU (median) | page faults | context switches |\n|---|---:|---:|---:|---:|---:|")
		for _, c := range colds {
			fmt.Fprintf(w, "| %s | %s | %.2fx | %s | %d | %d |\n", c.Name, bench.FormatDuration(c.Median), c.VsFloor, bench.FormatDuration(c.CPU), c.Faults, c.Switches)
		}
		fmt.Fprintln(w)
	}
	if o.want("counts") {
		fmt.Fprintln(progress, "cgibench: page faults and context switches")
		if err := reportCounts(ctx, w, build, argv, o.countRuns); err != nil {
			return err
		}
	}
	if o.want("init") {
		fmt.Fprintln(progress, "cgibench: inittrace")
		fmt.Fprintf(w, "## Package initialisation (GODEBUG=inittrace=1, FORM GET, JSON out)\n\n")
		env := bench.CGIEnv(bench.Gateway, bench.Query, "application/json")
		sums := map[string]bench.InitSummary{}
		for _, name := range []string{bench.Gateway, bench.GoCGI} {
			s, err := bench.TraceInit(ctx, argv[name], env, o.initRuns)
			if err != nil {
				return err
			}
			sums[name] = s
			n := 0
			if name == bench.Gateway {
				n = 20
			}
			bench.FormatInit(w, name, s, n)
			fmt.Fprintln(w)
		}
		extra, clock, bytes := bench.InitExtra(sums[bench.Gateway], sums[bench.GoCGI])
		fmt.Fprintf(w, "Initialised by cgigate and not by the plain net/http/cgi program: %d packages, %s of clock, %d bytes. Most costly:\n\n", len(extra), bench.FormatDuration(clock), bytes)
		for _, in := range extra[:min(10, len(extra))] {
			fmt.Fprintf(w, "- %s: %s, %d bytes, %d allocs\n", in.Package, bench.FormatDuration(in.Clock), in.Bytes, in.Allocs)
		}
		fmt.Fprintln(w)
	}
	if o.want("mem") {
		fmt.Fprintln(progress, "cgibench: memory")
		if err := memory(ctx, w, peers[bench.Gateway], o); err != nil {
			return err
		}
	}
	if o.want("search") {
		fmt.Fprintln(progress, "cgibench: search")
		if err := search(ctx, w, peers[bench.Gateway], o); err != nil {
			return err
		}
	}
	if o.want("omega") {
		fmt.Fprintln(progress, "cgibench: omega")
		if err := sideBySide(ctx, w, progress, peers[bench.Gateway], peers[bench.GatewayF], o); err != nil {
			return err
		}
	}
	return late
}

// fastCGIPeers starts what the servers serve beside cgi-bin: cgigate -fcgi
// (the default build, peers[bench.GatewayF]) over TCP and on a Unix socket
// in dir, PHP-FPM over TCP and on a socket when it is installed (said on
// progress when it is not), and cgigate's page as a static file. stop,
// even after an error, stops what was started.
func fastCGIPeers(dir string, peers map[string]string, progress io.Writer) (b bench.Backends, stop func(), err error) {
	var started []interface{ Stop() error }
	stop = func() {
		for _, p := range slices.Backward(started) {
			p.Stop()
		}
	}
	if b.StaticPage, err = bench.StaticPage(peers[bench.Gateway]); err != nil {
		return b, stop, err
	}
	if b.FastCGI, err = bench.StartFastCGI(peers[bench.GatewayF], nil); err != nil {
		return b, stop, err
	}
	started = append(started, b.FastCGI)
	if b.FastCGIUnix, err = bench.StartFastCGIUnix(peers[bench.GatewayF], filepath.Join(dir, "cgigate-fcgi.sock"), nil); err != nil {
		return b, stop, err
	}
	started = append(started, b.FastCGIUnix)
	bin, err := bench.FindPHPFPM()
	if err != nil {
		fmt.Fprintf(progress, "cgibench: %v: php-fpm left out\n", err)
		return b, stop, nil
	}
	if b.PHPFPM, err = bench.StartPHPFPM(bin, dir); err != nil {
		return b, stop, err
	}
	started = append(started, b.PHPFPM)
	if b.PHPFPMUnix, err = bench.StartPHPFPMUnix(bin, dir); err != nil {
		return b, stop, err
	}
	started = append(started, b.PHPFPMUnix)
	return b, stop, nil
}

func machine(w io.Writer) {
	cpu := "unknown"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	version := "unknown"
	if bin, err := apache.FindBinary(os.Getenv, execLookPath, fileExists); err == nil {
		if out, err := execOutput(bin, "-v"); err == nil {
			version = strings.TrimSpace(strings.TrimPrefix(strings.SplitN(out, "\n", 2)[0], "Server version:"))
		}
	}
	load := ""
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	fmt.Fprintf(w, "# cgibench report\n\nMachine: %d CPUs (nproc), %s; %s; %s; %s/%s; load average at start %s; %s.\n\n",
		runtime.NumCPU(), cpu, version, wrkVersion(), runtime.Version(), runtime.GOARCH, load, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
}

func wrkVersion() string {
	out, _ := execCombined("wrk", "--version")
	line := strings.SplitN(out, "\n", 2)[0]
	if f := strings.Fields(line); len(f) >= 2 {
		return "wrk " + f[1]
	}
	return "wrk"
}

func fcgiVsCGI(w io.Writer, rows []bench.Row) {
	fmt.Fprintln(w, "cgigate -fcgi (behind mod_proxy_fcgi) against cgigate as a CGI program, same server and round:")
	fmt.Fprintln(w)
	for _, r := range rows {
		if r.Peer == bench.GatewayF && r.VsGateway > 0 {
			fmt.Fprintf(w, "- %s, %d connections: %.0f req/s, %.1fx the CGI mode\n", r.MPM, r.Conns, r.RPS, r.VsGateway)
		}
	}
	fmt.Fprintln(w)
}

// againstReferences says, per server and connection count, how far the
// references get against the C floor and how far cgigate gets against
// go-deps: the first bounds every Go CGI program, the second is what is
// left to cgigate's own code.
func againstReferences(w io.Writer, rows []bench.Row) {
	type group struct {
		mpm   string
		conns int
	}
	refs := map[group]map[string]bench.Row{}
	var order []group
	for _, r := range rows {
		g := group{r.MPM, r.Conns}
		if refs[g] == nil {
			refs[g] = map[string]bench.Row{}
			order = append(order, g)
		}
		refs[g][r.Peer] = r
	}
	fmt.Fprintln(w, "The references against the C floor, and cgigate against go-deps, same server and round:")
	fmt.Fprintln(w)
	for _, g := range order {
		hello, okH := refs[g][bench.GoHello]
		deps, okD := refs[g][bench.GoDeps]
		if !okH || !okD || hello.VsFloor == 0 || deps.VsFloor == 0 || deps.VsGateway == 0 {
			continue
		}
		fmt.Fprintf(w, "- %s, %d connections: go-hello %.2fx the floor, go-deps %.2fx; cgigate %.2fx go-deps\n",
			g.mpm, g.conns, hello.VsFloor, deps.VsFloor, 1/deps.VsGateway)
	}
	fmt.Fprintln(w)
}

func memory(ctx context.Context, w io.Writer, gateway string, o options) error {
	dir, err := os.MkdirTemp("", "cgibench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env := []string{"TMPDIR=" + dir, "CGIGATE_MAX_BODY=" + strconv.Itoa(300_000_000)}
	fmt.Fprintln(w, "## Peak RSS of cgigate (CGI child, body on a stdin pipe, /usr/bin/time -v)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| body | size | peak RSS | RSS / body | wall | status |\n|---|---:|---:|---:|---:|---|")
	for _, k := range []struct {
		kind  string
		sizes []float64
		write func(string, int64) (string, error)
	}{{bench.Multipart, o.multipartMB, bench.WriteMultipart}, {bench.URLEncoded, o.urlencMB, bench.WriteURLEncoded}} {
		var xs, ys []float64
		for _, mb := range k.sizes {
			if err := ctx.Err(); err != nil {
				return err
			}
			path := filepath.Join(dir, "body")
			ct, err := k.write(path, int64(mb*1e6))
			if err != nil {
				return err
			}
			m, err := bench.PeakRSS(ctx, gateway, k.kind, path, ct, env)
			os.Remove(path)
			if err != nil {
				return err
			}
			xs, ys = append(xs, float64(m.Body)), append(ys, float64(m.PeakKB)*1024)
			fmt.Fprintf(w, "| %s | %.2f MB | %.1f MB | %.2f | %s | %s |\n", k.kind, float64(m.Body)/1e6, float64(m.PeakKB)*1024/1e6,
				float64(m.PeakKB)*1024/float64(m.Body), bench.FormatDuration(m.Wall), m.Status)
		}
		fmt.Fprintf(w, "| %s | slope | %.3f bytes of RSS per body byte (least squares) | | | |\n", k.kind, bench.Slope(xs, ys))
		chart := bench.Chart{Title: "Peak RSS of one cgigate CGI process against its " + k.kind + " body", XLabel: "body (MB)", YLabel: "peak RSS (MB)",
			Series: []bench.Series{{Name: k.kind, X: scaled(xs, 1e-6), Y: scaled(ys, 1e-6)}}}
		if err := writeChart(o.plot, "memory-"+k.kind+".png", chart); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	return nil
}

// writeChart writes c as dir/name, when dir is set.
func writeChart(dir, name string, c bench.Chart) error {
	if dir == "" {
		return nil
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if err := c.WritePNG(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func scaled(xs []float64, k float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * k
	}
	return out
}

func search(ctx context.Context, w io.Writer, gateway string, o options) error {
	tmp, err := os.MkdirTemp("", "cgibench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(w, "## ISINDEX search over generated documents (CGI child, exec to exit, JSON out)")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Query: `?%s+%s` (both words must occur); the documents are walked and read on every request.\n", bench.Needle, bench.Hay)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| documents | median per request | results | under 100 ms |\n|---:|---:|---:|---|")
	scan := bench.Series{Name: "scan (no index)"}
	for _, n := range o.searchDocs {
		dir := filepath.Join(tmp, "index")
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := bench.GenerateIndex(dir, n, 1); err != nil {
			return err
		}
		s, err := bench.SearchTime(ctx, gateway, dir, n, []string{bench.Needle, bench.Hay}, o.searchRuns)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "| %d | %s | %d | %v |\n", s.Docs, bench.FormatDuration(s.Median), s.Results, s.Median < 100*time.Millisecond)
		scan.X, scan.Y = append(scan.X, float64(s.Docs)), append(scan.Y, float64(s.Median)/float64(time.Millisecond))
		os.RemoveAll(dir)
	}
	fmt.Fprintln(w)
	return writeChart(o.plot, "search.png", bench.Chart{Title: "One ISINDEX search by a cgigate CGI process, exec to exit", XLabel: "documents", YLabel: "ms", Series: []bench.Series{scan}})
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("want positive integers separated by commas, got %q", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func floats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || x <= 0 {
			return nil, fmt.Errorf("want positive numbers separated by commas, got %q", s)
		}
		out = append(out, x)
	}
	return out, nil
}

// writeRaw saves every sample, so that a table can be recomputed.
func writeRaw(path string, res bench.Results) error {
	type rec struct {
		Round int
		bench.Key
		bench.Sample
	}
	var recs []rec
	for i, round := range res.Rounds {
		for k, s := range round {
			recs = append(recs, rec{i + 1, k, s})
		}
	}
	b, err := json.MarshalIndent(recs, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// reportCounts writes what one process of each Go program touches per
// request kind, against go-hello: perf's software events where perf
// works, else getrusage.
func reportCounts(ctx context.Context, w io.Writer, dir string, argv map[string][]string, runs int) error {
	reqs, err := bench.CountedRequests(ctx, filepath.Join(dir, "counts"), argv[bench.Gateway][0])
	if err != nil {
		return err
	}
	usePerf, source := bench.PerfWorks(ctx), bench.FromRusage
	if usePerf {
		source = bench.FromPerf
	}
	fmt.Fprintf(w, "## Page faults and context switches per process (%s, median of %d runs each)\n\n", source, runs)
	fmt.Fprintf(w, "cgigate runs with %s, as its Apache configuration runs it.\n\n", strings.Join(bench.DeployedEnv, " "))
	fmt.Fprintln(w, "| request | program | page faults | × go-hello | context switches | × go-hello |\n|---|---|---:|---:|---:|---:|")
	for _, r := range reqs {
		var hello bench.Counts
		for _, name := range []string{bench.GoHello, bench.GoCGI, bench.Gateway} {
			env := r.Env
			if name == bench.Gateway {
				env = append(env[:len(env):len(env)], bench.DeployedEnv...)
			}
			c, err := bench.CountRuns(ctx, append(argv[name], r.Args...), env, r.Stdin, runs, usePerf)
			if err != nil {
				return err
			}
			if name == bench.GoHello {
				hello = c
			}
			fmt.Fprintf(w, "| %s | %s | %d | %s | %d | %s |\n", r.Name, name,
				c.Faults, timesOf(c.Faults, hello.Faults), c.Switches, timesOf(c.Switches, hello.Switches))
		}
	}
	fmt.Fprintln(w)
	return nil
}

// timesOf is x/of as "1.23x", or "-" when of is zero.
func timesOf(x, of int64) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", float64(x)/float64(of))
}
