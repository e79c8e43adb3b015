// Command serve starts cgigate for a person to try it on a fresh machine:
//
//	go run ./internal/cmd/serve [-addr 127.0.0.1:8080] [-gohost]
//
// It builds cmd/cgigate (CGO_ENABLED=0) into a temporary folder that Apache's
// www-data children can read, and when Apache httpd is installed (found by
// APACHE_BIN, then PATH, then /usr/sbin) renders a standalone httpd.conf with
// httpdconf (the event MPM with mod_cgid, SetEnv for every CGIGATE_*
// variable of its own environment) and runs Apache in the foreground, its
// children as www-data. Without Apache (or with -gohost) it runs
// "cgigate -http ADDR", Go's own CGI host (net/http/cgi), and says so.
// Either way it prints the URL to open, http://ADDR/cgi-bin/cgigate.
//
// Ctrl-C (SIGINT) or SIGTERM stops the server by its pid and removes the
// temporary folder.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/gobuild"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(machine{lookPath: exec.LookPath, exists: fileExists}.run(ctx, os.Args, os.Environ(), os.Stdout, os.Stderr))
}

// machine is how this command looks for Apache: PATH lookup and a file
// test, passed in so that a test can make Apache absent.
type machine struct {
	lookPath func(string) (string, error)
	exists   func(string) bool
}

// run is main over given process state; ctx is cancelled by Ctrl-C.
func (m machine) run(ctx context.Context, args, environ []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", defaultAddr, "`IP:PORT` to serve on")
	goHost := fl.Bool("gohost", false, "serve with cgigate -http (Go's own CGI host) even when Apache is installed")
	if err := fl.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "serve: unexpected arguments %q\n", fl.Args())
		return 2
	}
	host, port, err := splitAddr(*addr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	// Another server on the port would answer the start-up poll in
	// Apache's place: refuse a busy address before anything starts.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, &AddrError{*addr, err})
		return 1
	}
	ln.Close()
	getenv := envLookup(environ)

	bin := ""
	if !*goHost {
		bin, err = apache.FindBinary(getenv, m.lookPath, m.exists)
		if err != nil && !errors.Is(err, apache.ErrNoApache) {
			fmt.Fprintf(stderr, "serve: %v\n", err) // a wrong APACHE_BIN is a mistake to report, not to work around
			return 1
		}
	}

	root, err := makeRoot()
	if root != "" {
		defer os.RemoveAll(root)
	}
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "serve: working folder %s (removed at exit)\n", root)
	cgiBin := filepath.Join(root, "cgi-bin")
	gateway := filepath.Join(cgiBin, "cgigate")
	// Under Apache the gateway is built as README deploys it in cgi-bin;
	// Go's CGI host is the gateway's own -http mode, which that build
	// leaves out.
	tags := gobuild.CGIBin
	if bin == "" {
		tags = ""
	}
	if err := buildGateway(gateway, tags, environ, stderr); err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}

	var srv server
	name := "apache"
	if bin != "" {
		srv, err = startApache(bin, root, host, port, environ, stdout, stderr)
	} else {
		if !*goHost {
			fmt.Fprintf(stdout, "serve: %v\n", apache.ErrNoApache)
		}
		fmt.Fprintln(stdout, "serve: serving with Go's own CGI host (cgigate -http, net/http/cgi) instead of Apache")
		name = "cgigate -http"
		srv, err = startGoHost(gateway, *addr, environ, stdout, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "cgigate: open %s  (Ctrl-C stops)\n", openURL(host, port))

	select {
	case <-ctx.Done():
		if err := srv.Stop(); err != nil {
			fmt.Fprintf(stderr, "serve: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, "serve: stopped")
		return 0
	case <-srv.Done():
		fmt.Fprintf(stderr, "serve: %s exited: %v\n", name, srv.Err())
		return 1
	}
}

func envLookup(environ []string) func(string) string {
	return func(k string) string {
		for i := len(environ) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(environ[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// makeRoot makes the temporary ServerRoot with a cgi-bin for the gateway,
// mode 0755 (apache.TempDir, which checks that www-data can reach it when
// Apache would run its children as www-data, that is, when this runs as
// root). The Go CGI host needs no more; apache.Start lays out the rest.
func makeRoot() (string, error) {
	root, err := apache.TempDir("cgigate-serve-")
	if err != nil {
		return "", err
	}
	return root, apache.Mkdir(filepath.Join(root, "cgi-bin"), 0o755)
}

// buildGateway builds cmd/cgigate statically with the build tags in tags
// to out, with mode 0755 whatever the umask.
func buildGateway(out, tags string, environ []string, stderr io.Writer) error {
	cmd := gobuild.Command(context.Background(), "", "github.com/cgigate/cgigate/cmd/cgigate", out, tags)
	cmd.Env = append(environ, "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building cmd/cgigate (run this from inside the cgigate module): %w", err)
	}
	return os.Chmod(out, 0o755)
}

// onlyWriter hides what else a writer is, such as an *os.File.
type onlyWriter struct{ io.Writer }

// server is what run waits on and stops: Apache or Go's CGI host, each a
// child in its own process group, so that a terminal's Ctrl-C reaches only
// this command, which stops it by its pid.
type server interface {
	Stop() error
	Done() <-chan struct{}
	Err() error
}

// startApache renders the configuration into root and runs Apache in the
// foreground until it answers on host:port.
func startApache(bin, root, host string, port int, environ []string, stdout, stderr io.Writer) (*apache.Server, error) {
	user, group := apache.Account(os.Geteuid(), os.Getegid())
	cfg := apacheConfig(root, apache.ModuleDir(bin, fileExists), user, group, host, port, gatewayEnv(environ))
	fmt.Fprintf(stdout, "serve: %s -f %s -DFOREGROUND (event MPM, mod_cgid, children as %s)\n", bin, filepath.Join(root, "httpd.conf"), user)
	// Apache reopens /dev/stdout and /dev/stderr for its logs; behind a
	// pipe (exec makes one for a writer that is no *os.File) its lines
	// and this command's cannot overwrite each other in a redirected file.
	return apache.Start(bin, apache.Options{Config: cfg, Environ: environ, Stdout: onlyWriter{stdout}, Stderr: onlyWriter{stderr}})
}

// startGoHost runs "cgigate -http addr", which serves every request by
// running itself as a CGI child through net/http/cgi.Handler, and waits
// for the line in which it says it listens.
func startGoHost(gateway, addr string, environ []string, stdout, stderr io.Writer) (*apache.Child, error) {
	cmd := exec.Command(gateway, "-http", addr)
	cmd.Env = childEnv(environ)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c, err := apache.StartChild("cgigate -http", cmd)
	if err != nil {
		return nil, err
	}
	lines := bufio.NewScanner(out)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "cgigate: open ") {
		c.Stop()
		return nil, fmt.Errorf("cgigate -http %s did not start: %q", addr, lines.Text())
	}
	go func() { // keep the pipe drained
		for lines.Scan() {
			fmt.Fprintln(stdout, lines.Text())
		}
	}()
	return c, nil
}
