// Command cgigate is a CGI gateway for ISINDEX searches and HTML form
// submissions: it decodes QUERY_STRING and POST bodies with charset hints
// and renders what it decoded as HTML, JSON or text, by the Accept header.
//
// Modes of the same handler:
//
//	(GATEWAY_INTERFACE set)  CGI, the default: run by Apache from cgi-bin
//	cgigate -http ADDR       HTTP for trying it out: runs this binary as a
//	                         CGI child through net/http/cgi.Handler
//	cgigate -fcgi ADDR       FastCGI (cgi/fcgi), for mod_proxy_fcgi
//
// and the commands a site runs beside the web server:
//
//	cgigate -index DIR       build or update DIR's search index
//	cgigate -check-forms F   check a forms file (CGIGATE_FORMS)
//	cgigate export FILE      the submissions of a record file, as JSON
//	                         lines or CSV (cgigate export -help)
//	cgigate deliver ...      a service that follows a record file and
//	                         delivers each record to PostgreSQL, webhooks, mail
//
// Built with -tags cgionly, the binary leaves out -http, -fcgi, export and
// deliver, and with them every package of net/http: a CGI process starts
// for every request, and that build starts faster (BENCHMARKS.md, "Cold
// start").
//
// CGI mode is decided by GATEWAY_INTERFACE before any flag is parsed:
// Apache passes an ISINDEX query's words as arguments, and a word like
// "-s" must never be read as an option (php-cgi, CVE-2012-1823 and
// CVE-2024-4577). Configuration comes from the environment (see -help;
// -version names the build).
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/cgigate/cgigate/cgi"
	_ "github.com/cgigate/cgigate/internal/cgiprocs" // GOMAXPROCS=1 for a small CGI request, set before the other inits
	"github.com/cgigate/cgigate/internal/cli"
	_ "github.com/cgigate/cgigate/internal/mainstack" // the main goroutine's stack grown once, at start, to what a request needs
	"github.com/cgigate/cgigate/search"
)

func main() {
	os.Exit(run(os.Environ(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run is main over given process state.
func run(environ, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	log.SetFlags(0)
	log.SetOutput(stderr)
	env := cgi.Environ(environ)
	if env["GATEWAY_INTERFACE"] != "" {
		// A client that goes away closes stdout under us: a write then
		// fails with EPIPE, reported and ended like any other error,
		// rather than SIGPIPE killing the process before its temporary
		// files are removed.
		signal.Ignore(syscall.SIGPIPE)
		// A bad configuration is not logged here: the gateway answers
		// every request with a 500, and WriteError logs each 500 with its
		// reason, so one request leaves one line in Apache's error log.
		cfg, err := loadConfig(env)
		if err := cgi.ServeEnv(newGateway(cfg, err), cfg.cgi.Limits, env, args[1:], stdin, stdout); err != nil {
			log.Printf("cgigate: %v", err)
			return 1
		}
		return 0
	}
	switch {
	case len(args) > 1 && args[1] == "deliver":
		return runDeliver(env, args[2:], stdout, stderr)
	case len(args) > 1 && args[1] == "export":
		return runExport(env, args[0], args[2:], stdout, stderr)
	}
	fl := flag.NewFlagSet("cgigate", flag.ContinueOnError)
	httpAddr := fl.String("http", "", "serve HTTP on `ADDR` (e.g. localhost:8080), running this binary as a CGI child per request")
	fcgiAddr := fl.String("fcgi", "", "serve FastCGI on `ADDR` (e.g. localhost:9000, or a Unix socket's path such as /run/cgigate/fcgi.sock)")
	indexDir := fl.String("index", "", "build or update the search index `DIR`/"+search.IndexName+" of the documents in DIR (as CGIGATE_INDEX_DIR names it) and exit: only the documents added or changed since the last run are read; searches trust it and never compare it with the documents: rerun after changing them")
	full := fl.Bool("full", false, "with -index: read every document and rebuild the index whole")
	checkForms := fl.String("check-forms", "", "check the forms file `FILE` (as CGIGATE_FORMS names it): print each fault with its line and key, and exit 1 if there is one")
	fl.Usage = func() {
		w := fl.Output() // stdout for -help, stderr for a mistake
		fmt.Fprintf(w, "usage: %s %s"+exportUsage+deliverUsage+"\n\nRun by a web server with GATEWAY_INTERFACE set, it answers one CGI request.\n\n", args[0], modesUsage)
		fl.PrintDefaults()
		printSettings(w)
	}
	if err := cli.Parse(fl, args[1:], stdout, stderr); err != nil {
		return cli.Code(err)
	}
	switch {
	case *checkForms != "" && *indexDir == "" && *httpAddr == "" && *fcgiAddr == "":
		return runCheckForms(*checkForms, env, stdout, stderr)
	case *indexDir != "" && *httpAddr == "" && *fcgiAddr == "":
		return runIndex(env, *indexDir, *full, stdout, stderr)
	case *httpAddr != "" && *fcgiAddr == "":
		return serveHTTP(*httpAddr, stdout)
	case *fcgiAddr != "" && *httpAddr == "":
		return serveFCGI(env, *fcgiAddr, stdout)
	}
	fl.Usage()
	return 2
}
