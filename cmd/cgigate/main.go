// Command cgigate is a CGI gateway for ISINDEX searches and HTML form
// submissions: it decodes QUERY_STRING and POST bodies with charset hints
// and renders what it decoded as HTML, JSON or text, by the Accept header.
//
// Modes of the same handler:
//
//	(GATEWAY_INTERFACE set)  CGI, the default: run by Apache from cgi-bin
//	cgigate -http ADDR       HTTP for trying it out: runs this binary as a
//	                         CGI child through net/http/cgi.Handler
//	cgigate -fcgi ADDR       FastCGI (net/http/fcgi), for mod_proxy_fcgi
//
// CGI mode is decided by GATEWAY_INTERFACE before any flag is parsed:
// Apache passes an ISINDEX query's words as arguments, and a word like
// "-s" must never be read as an option (php-cgi, CVE-2012-1823 and
// CVE-2024-4577). Configuration comes from the environment (see -help).
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	gocgi "net/http/cgi"
	"net/http/fcgi"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cgigate/cgigate/cgi"
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
		cfg, err := loadConfig(env)
		if err != nil {
			log.Printf("cgigate: %v", err)
		}
		if err := cgi.ServeEnv(newGateway(cfg, err), cfg.cgi.Limits, env, args[1:], stdin, stdout); err != nil {
			log.Printf("cgigate: %v", err)
			return 1
		}
		return 0
	}
	fl := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	httpAddr := fl.String("http", "", "serve HTTP on `ADDR` (e.g. localhost:8080), running this binary as a CGI child per request")
	fcgiAddr := fl.String("fcgi", "", "serve FastCGI on `ADDR` (e.g. localhost:9000)")
	indexDir := fl.String("index", "", "build the search index `DIR`/"+indexName+" of the documents in DIR (as CGIGATE_INDEX_DIR names it) and exit; searches trust it and never compare it with the documents: rerun after changing them")
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s [-http ADDR | -fcgi ADDR | -index DIR]\n\nRun by a web server with GATEWAY_INTERFACE set, it answers one CGI request.\n\n", args[0])
		fl.PrintDefaults()
		printSettings(stderr)
	}
	if err := fl.Parse(args[1:]); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	switch {
	case *indexDir != "" && *httpAddr == "" && *fcgiAddr == "":
		return runIndex(*indexDir, stdout, stderr)
	case *httpAddr != "" && *fcgiAddr == "":
		return serveHTTP(*httpAddr, stdout)
	case *fcgiAddr != "" && *httpAddr == "":
		return serveFCGI(env, *fcgiAddr, stdout)
	}
	fl.Usage()
	return 2
}

// serveHTTP runs this binary as a CGI child for every request, so the real
// CGI path (environment, stdin, the Status header) is what answers.
func serveHTTP(addr string, stdout io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	inherit := []string{"TMPDIR"}
	for _, s := range settings {
		inherit = append(inherit, s.name)
	}
	h := &gocgi.Handler{Path: exe, Root: "/", InheritEnv: inherit}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	fmt.Fprintf(stdout, "cgigate: open http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("cgigate: %v", srv.Serve(ln))
	return 1
}

// serveFCGI serves the same handler over FastCGI. The configuration is
// read once; a bad one stops the server before it listens.
func serveFCGI(env map[string]string, addr string, stdout io.Writer) int {
	cfg, err := loadConfig(env)
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	fmt.Fprintf(stdout, "cgigate: FastCGI on %s\n", ln.Addr())
	log.Printf("cgigate: %v", fcgi.Serve(ln, cgi.Guard(newGateway(cfg, nil))))
	return 1
}
