// Command cgiload sends a bounded mix of ISINDEX, urlencoded, multipart
// and bad requests at a cgigate gateway on this machine, then checks every
// answer and every recorded submission:
//
//   - every good request is answered 2xx, with the fields it sent;
//   - every bad request gets its own 4xx (400, 413, 415), never a 5xx;
//   - every good form submission is in the CGIGATE_RECORD file exactly
//     once, intact (its fields and files as sent), and no bad one is;
//   - the record file holds only whole JSON lines.
//
// Usage:
//
//	cgiload -apache [-gateway PATH] [-mpm event|prefork] [-cgi-module cgi|cgid] [-n 2000] [-c 32]
//	cgiload -url http://127.0.0.1:PORT/cgi-bin/cgigate -record FILE [-n 2000] [-c 32]
//
// With -apache it builds cmd/cgigate (or takes -gateway), starts Apache
// httpd with a configuration from httpdconf in a throwaway ServerRoot,
// with CGIGATE_RECORD set, and stops it at the end. With -url it loads a
// gateway already running, whose record file is -record (without one the
// records are not checked). Targets must be loopback addresses: cgiload
// is a test tool, not a load generator for other people's servers.
//
// The run is bounded in count (-n, at most 100000) and in time (-timeout,
// at most 30m). SIGINT (Ctrl-C), SIGTERM or SIGHUP stops it at any point:
// the requests in flight are cancelled, the report of what was answered
// is printed, Apache is stopped and the ServerRoot removed. The exit
// status is 0 when every check passed, 1 when one failed, 2 for a usage
// error, 128 plus the signal's number when a signal stopped it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/cli"
)

// Bounds on what one run may ask for.
const (
	maxRequests    = 100000
	maxConcurrency = 256
	maxTimeout     = 30 * time.Minute
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command line.
type options struct {
	url, record, gateway string
	// mpm and cgiModule are httpdconf.Config's MPM and CGIModule.
	mpm, cgiModule string
	apache         bool
	n, c           int
	timeout        time.Duration
	seed           int64
}

const usageText = `usage: cgiload -apache [flags]
       cgiload -url URL [-record FILE] [flags]

Sends a bounded mix of ISINDEX, urlencoded, multipart and bad requests at
a cgigate gateway on this machine (its own Apache with -apache, or one
already running at a loopback -url), checks every answer and every
recorded submission, and prints a report ending PASS or FAIL. SIGINT,
SIGTERM or SIGHUP stops it at any point, with the report so far. Exit
status: 0 pass, 1 fail, 2 usage, 128+N stopped by signal N (130 Ctrl-C,
143 SIGTERM, 129 SIGHUP).
`

func parse(args []string, stdout, stderr io.Writer) (options, error) {
	var o options
	fl := flag.NewFlagSet("cgiload", flag.ContinueOnError)
	cli.SetUsage(fl, usageText)
	fl.StringVar(&o.url, "url", "", "the gateway's `URL`, on a loopback address (http://127.0.0.1:PORT/cgi-bin/cgigate)")
	fl.StringVar(&o.record, "record", "", "the `FILE` the gateway at -url appends submissions to (its CGIGATE_RECORD)")
	fl.BoolVar(&o.apache, "apache", false, "start Apache httpd (via httpdconf) with the gateway, instead of -url")
	fl.StringVar(&o.gateway, "gateway", "", "with -apache: the built cgigate `binary` (default: go build ./cmd/cgigate)")
	fl.StringVar(&o.mpm, "mpm", "event", "with -apache: event (mod_cgid) or prefork (mod_cgi unless -cgi-module cgid)")
	fl.StringVar(&o.cgiModule, "cgi-module", "", "with -apache: cgi or cgid (default: the MPM's)")
	fl.IntVar(&o.n, "n", 2000, fmt.Sprintf("requests to send (at most %d)", maxRequests))
	fl.IntVar(&o.c, "c", 32, fmt.Sprintf("requests in flight (at most %d)", maxConcurrency))
	fl.DurationVar(&o.timeout, "timeout", 2*time.Minute, fmt.Sprintf("bound on the whole run (at most %s)", maxTimeout))
	fl.Int64Var(&o.seed, "seed", 1, "seed of the request mix")
	if err := cli.Parse(fl, args, stdout, stderr); err != nil {
		return o, err
	}
	switch {
	case fl.NArg() > 0:
		return o, fmt.Errorf("unexpected arguments %q", fl.Args())
	case o.apache == (o.url != ""):
		return o, errors.New("give exactly one of -apache and -url")
	case o.apache && o.record != "":
		return o, errors.New("-record goes with -url; -apache sets its own")
	case o.n < 1 || o.n > maxRequests:
		return o, fmt.Errorf("-n %d: want 1..%d", o.n, maxRequests)
	case o.c < 1 || o.c > maxConcurrency:
		return o, fmt.Errorf("-c %d: want 1..%d", o.c, maxConcurrency)
	case o.timeout <= 0 || o.timeout > maxTimeout:
		return o, fmt.Errorf("-timeout %s: want up to %s", o.timeout, maxTimeout)
	case !o.apache && (o.mpm != "event" || o.cgiModule != ""):
		return o, errors.New("-mpm and -cgi-module go with -apache")
	}
	if o.apache {
		if err := (httpdconf.Config{MPM: httpdconf.MPM(o.mpm), CGIModule: httpdconf.CGIModule(o.cgiModule)}).Validate(); err != nil {
			return o, err
		}
	}
	if o.url != "" {
		if err := checkTarget(o.url); err != nil {
			return o, err
		}
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stdout, stderr)
	if err != nil {
		return cli.Exit(stderr, "cgiload", err)
	}
	sig, stop := cli.NotifyContext(context.Background())
	defer stop()
	code := runWith(sig, o, stdout, stderr)
	// Said once and last, after Apache has stopped and its folder is gone.
	if se := cli.Signalled(sig); se != nil {
		fmt.Fprintf(stderr, "cgiload: %v\n", se)
		return se.ExitCode()
	}
	return code
}

// runWith runs the load o asks for until it is done or ctx ends, and
// returns the exit status. Apache, when it started one, is stopped and
// its folder removed when it returns.
func runWith(ctx context.Context, o options, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	target, record := o.url, o.record
	if o.apache {
		srv, err := startApache(ctx, o.gateway, httpdconf.MPM(o.mpm), httpdconf.CGIModule(o.cgiModule), stderr)
		if err != nil {
			if cli.Signalled(ctx) == nil { // a signal is said once, by run
				fmt.Fprintln(stderr, "cgiload:", err)
			}
			return 1
		}
		defer srv.stop()
		target, record = srv.url, srv.record
	}
	rep := load(ctx, target, plan(o.n, o.seed), o.c)
	switch {
	case cli.Signalled(ctx) != nil:
		// The requests cut short may or may not have been recorded.
		rep.note("stopped by a signal: recorded submissions not checked")
	case record != "":
		rep.checkRecords(record)
	default:
		rep.note("no -record: recorded submissions not checked")
	}
	rep.print(stdout)
	if rep.failed() {
		return 1
	}
	return 0
}
