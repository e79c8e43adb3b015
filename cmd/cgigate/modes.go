//go:build !cgionly

package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	gocgi "net/http/cgi"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/cgi/cgihttp"
	"github.com/cgigate/cgigate/cgi/fcgi"
)

// modesUsage is the usage line's modes in this build.
const modesUsage = "[-http ADDR | -fcgi ADDR | -index DIR [-full] | -check-forms FILE]"

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
	h := fitsExec(&gocgi.Handler{Path: exe, Root: "/", InheritEnv: inherit})
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

// maxExecString is Linux's MAX_ARG_STRLEN, 32 pages of 4 KiB: the longest
// string execve(2) takes in argv or the environment, its NUL counted. A
// longer one fails the exec with E2BIG, which net/http/cgi answers 500
// ("argument list too long"). The request line and every header become
// such strings: QUERY_STRING, REQUEST_URI, PATH_INFO and HTTP_*. (Apache
// also puts an ISINDEX query's words in argv; net/http/cgi does not, and
// each word is shorter than the query anyway.) The whole environment is
// bounded too, by a quarter of the stack limit (2 MiB of the usual 8), but
// the server's 1 MB bound on the request's header (MaxHeaderBytes) keeps
// it below that.
const maxExecString = 128 << 10

// fitsExec answers a request whose URI would make a meta-variable longer
// than maxExecString with 414, and one whose header would with 431 (RFC
// 6585 § 5), before a child is started; the others go to h. The answers
// are the gateway's own error answers, chosen by Accept.
func fitsExec(h http.Handler) http.Handler {
	fits := func(name, value string) bool { return len(name)+len("=")+len(value)+1 <= maxExecString }
	tooLong := func(status int, what string, n int) *cgi.Error {
		return &cgi.Error{Status: status, Op: "request", Msg: fmt.Sprintf("%s of %d bytes: a CGI meta-variable holds at most %d", what, n, maxExecString)}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var err *cgi.Error
		uri := r.URL.RequestURI()
		switch {
		case !fits("REQUEST_URI", uri) || !fits("QUERY_STRING", r.URL.RawQuery) || !fits("PATH_INFO", r.URL.Path):
			err = tooLong(cgi.StatusRequestURITooLong, "a URI", len(uri))
		case !fits("HTTP_HOST", r.Host):
			err = tooLong(cgi.StatusRequestHeaderFieldsTooLarge, "a Host header", len(r.Host))
		}
		for k, vs := range r.Header {
			if v := strings.Join(vs, ", "); err == nil && !fits("HTTP_"+k, v) {
				err = tooLong(cgi.StatusRequestHeaderFieldsTooLarge, "a "+k+" header", len(v))
			}
		}
		if err == nil {
			h.ServeHTTP(w, r)
			return
		}
		cgihttp.Handler(cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) { cgi.WriteError(w, r, err) })).ServeHTTP(w, r)
	})
}

// serveFCGI serves the same handler over FastCGI. The configuration is
// read once; a bad one stops the server before it listens.
func serveFCGI(env map[string]string, addr string, stdout io.Writer) int {
	cfg, err := loadConfig(env)
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	ln, err := listenFCGI(addr)
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	tuneGC(env)
	fmt.Fprintf(stdout, "cgigate: FastCGI on %s\n", ln.Addr())
	log.Printf("cgigate: %v", serveFCGIOn(ln, cfg))
	return 1
}

// listenFCGI listens on addr: host:port over TCP, or, for an addr with a
// slash (a host:port has none), a Unix socket at that path. On one machine
// the socket spares both sides TCP over loopback, whose write and read are
// half the gateway's CPU under Apache: 1.15x the requests a second at 0.85x
// the CPU (BENCHMARKS.md, "p99 against PHP-FPM"). Its mode is the
// umask's: the web server's user needs write permission on it. A socket
// file that nothing accepts on, left by a gateway that was killed, is
// replaced; a live one is not taken over.
func listenFCGI(addr string) (net.Listener, error) {
	if !strings.Contains(addr, "/") {
		return net.Listen("tcp", addr)
	}
	if fi, err := os.Lstat(addr); err == nil && fi.Mode().Type() == fs.ModeSocket {
		c, err := net.DialTimeout("unix", addr, time.Second)
		if err == nil {
			c.Close()
			return nil, fmt.Errorf("%s: a server accepts connections on it already", addr)
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			os.Remove(addr)
		}
	}
	return net.Listen("unix", addr)
}

// The FastCGI server's heap is small (a request's garbage, a few KiB,
// and almost nothing that lives), so the default GOGC=100 collects every
// few hundred requests, each cycle a fixed cost (stacks, globals) and the
// scavenger handing the freed pages back to the kernel, to be faulted in
// again. A long-lived server collects less often: GOGC=400, with a soft
// limit that makes the collector work harder, never fail, as the heap
// nears it. GOGC and GOMEMLIMIT in the environment are the operator's and
// win.
const (
	fcgiGCPercent   = 400
	fcgiMemoryLimit = 512 << 20
)

// tuneGC sets fcgiGCPercent and fcgiMemoryLimit unless env sets them.
func tuneGC(env map[string]string) {
	if _, set := env["GOGC"]; !set {
		debug.SetGCPercent(fcgiGCPercent)
	}
	if _, set := env["GOMEMLIMIT"]; !set {
		debug.SetMemoryLimit(fcgiMemoryLimit)
	}
}

// serveFCGIOn serves the gateway over FastCGI on the connections ln
// accepts, until ln fails.
func serveFCGIOn(ln net.Listener, cfg config) error {
	return fcgi.Serve(ln, newGateway(cfg, nil), cfg.cgi.Limits)
}
