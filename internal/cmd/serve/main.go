// Command serve starts cgigate for a person to try it on a fresh machine:
//
//	go run ./internal/cmd/serve [-addr 127.0.0.1:8080] [-gohost] [-docroot DIR]
//
// It builds cmd/cgigate (CGO_ENABLED=0, -tags cgionly, as README deploys
// it) into a temporary folder that Apache's www-data children can read,
// and when Apache httpd is installed (found by APACHE_BIN, then PATH, then
// /usr/sbin) renders a standalone httpd.conf with httpdconf (the event MPM
// with mod_cgid, SetEnv for every CGIGATE_* variable of its own
// environment) and runs Apache in the foreground, its children as
// www-data. Without Apache (or with -gohost) it serves the gateway with
// Go's own CGI host, net/http/cgi, and says so. Either way it prints the
// URL to open, http://ADDR/cgi-bin/cgigate. With -docroot, the files of DIR
// are served beside the gateway (Apache's DocumentRoot, or a file server);
// without it, every other path is a 404.
//
// It stops everything it started (Apache and its children) and removes the
// temporary folder on SIGINT (Ctrl-C), SIGTERM and SIGHUP, and also when
// the process that started it exits: "go run" passes no SIGTERM on, so
// stopping "go run" by its pid would otherwise leave the server running.
// Should serve itself be killed, the kernel sends Apache SIGTERM
// (apache.StartChild).
//
// It builds the gateway from the module's source, so it runs from a
// checkout, with go run; "go install ./cmd/..." does not install it.
package main

import (
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
	"time"

	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/cli"
	"github.com/cgigate/cgigate/internal/gobuild"
)

// parentPoll is how often serve looks whether the process that started it
// is still there.
const parentPoll = 250 * time.Millisecond

func main() {
	// With the terminal or the parent gone, stdout may be a pipe nobody
	// reads: a write must fail, not kill serve before it has cleaned up.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	ctx, unwatch := watchParent(ctx, os.Getppid, parentPoll)
	defer unwatch()
	os.Exit(machine{lookPath: exec.LookPath, exists: fileExists}.run(ctx, os.Args, os.Environ(), os.Stdout, os.Stderr))
}

// errParentGone is the cause of the context's end when the process that
// started serve has exited.
var errParentGone = errors.New("the process that started serve has exited")

// watchParent returns ctx, also cancelled (with errParentGone as its
// cause) once getppid no longer returns what it returned at first: the
// parent has died and this process has been adopted by init or a
// subreaper. A process whose parent is already init (pid 1) has nothing
// to watch.
func watchParent(ctx context.Context, getppid func() int, every time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	parent := getppid()
	if parent != 1 {
		go func() {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					if getppid() != parent {
						cancel(errParentGone)
						return
					}
				}
			}
		}()
	}
	return ctx, func() { cancel(nil) }
}

// machine is how this command looks for Apache: PATH lookup and a file
// test, passed in so that a test can make Apache absent.
type machine struct {
	lookPath func(string) (string, error)
	exists   func(string) bool
}

const usageText = `usage: serve [-addr IP:PORT] [-gohost] [-docroot DIR]

Builds cmd/cgigate and serves it for a person to try, under Apache httpd
when it is installed (else, or with -gohost, under Go's net/http/cgi), at
http://ADDR/cgi-bin/cgigate, with the files of -docroot beside it. It
builds from the module's source, so it runs from a checkout (go run
./internal/cmd/serve). SIGINT, SIGTERM, SIGHUP or the exit of the process
that started it stops everything it started and removes its working
folder (exit 0). Exit status: 1 a failure to start, 2 usage.
`

// run is main over given process state; ctx ends on a signal or when the
// parent exits.
func (m machine) run(ctx context.Context, args, environ []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	cli.SetUsage(fl, usageText)
	addr := fl.String("addr", defaultAddr, "`IP:PORT` to serve on")
	goHost := fl.Bool("gohost", false, "serve with Go's own CGI host (net/http/cgi) even when Apache is installed")
	docRoot := fl.String("docroot", "", "serve the files of `DIR` beside the gateway, at / (default: nothing but the gateway; other paths are 404)")
	if err := cli.Parse(fl, args[1:], stdout, stderr); err != nil {
		return cli.Code(err)
	}
	if fl.NArg() > 0 {
		return cli.Exit(stderr, "serve", fmt.Errorf("unexpected arguments %q", fl.Args()))
	}
	host, port, err := splitAddr(*addr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return cli.ExitUsage
	}
	docs, err := docRootDir(*docRoot)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return cli.ExitUsage
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
	gateway := filepath.Join(root, "cgi-bin", "cgigate")
	if err := buildGateway(ctx, gateway, environ, stderr); err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}

	var srv server
	name := "apache"
	if bin != "" {
		srv, err = startApache(bin, root, docs, host, port, environ, stdout, stderr)
	} else {
		if !*goHost {
			fmt.Fprintf(stdout, "serve: %v\n", apache.ErrNoApache)
		}
		fmt.Fprintln(stdout, "serve: serving with Go's own CGI host (net/http/cgi) instead of Apache")
		name = "Go's CGI host"
		srv, err = startGoHost(gateway, docs, *addr, gatewayEnv(environ), stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "cgigate: open %s  (Ctrl-C stops)\n", openURL(host, port))
	if docs != "" {
		fmt.Fprintf(stdout, "serve: the files of %s at %s\n", docs, siteURL(host, port))
	}

	select {
	case <-ctx.Done():
		if cause := context.Cause(ctx); errors.Is(cause, errParentGone) {
			fmt.Fprintf(stdout, "serve: %v; stopping\n", cause)
		}
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

// buildGateway builds cmd/cgigate statically, as README deploys it in
// cgi-bin (gobuild.CGIBin), to out with mode 0755 whatever the umask; ctx
// ending stops the build.
func buildGateway(ctx context.Context, out string, environ []string, stderr io.Writer) error {
	cmd := gobuild.Command(ctx, "", "github.com/cgigate/cgigate/cmd/cgigate", out, gobuild.CGIBin)
	cmd.Env = append(environ, "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building cmd/cgigate (run this from inside the cgigate module): %w", err)
	}
	return os.Chmod(out, 0o755)
}

// onlyWriter hides what else a writer is, such as an *os.File.
type onlyWriter struct{ io.Writer }

// server is what run waits on and stops: Apache, a child in its own
// process group (so that a terminal's Ctrl-C reaches only this command,
// which stops it by its pid), or Go's CGI host in this process.
type server interface {
	Stop() error
	Done() <-chan struct{}
	Err() error
}

// startApache renders the configuration into root and runs Apache in the
// foreground until it answers on host:port.
func startApache(bin, root, docs, host string, port int, environ []string, stdout, stderr io.Writer) (*apache.Server, error) {
	user, group := apache.Account(os.Geteuid(), os.Getegid())
	cfg := apacheConfig(root, apache.ModuleDir(bin, fileExists), user, group, host, port, gatewayEnv(environ))
	if docs != "" {
		cfg.DocumentRoot = docs
	}
	fmt.Fprintf(stdout, "serve: %s -f %s -DFOREGROUND (event MPM, mod_cgid, children as %s)\n", bin, filepath.Join(root, "httpd.conf"), user)
	// Apache reopens /dev/stdout and /dev/stderr for its logs; behind a
	// pipe (exec makes one for a writer that is no *os.File) its lines
	// and this command's cannot overwrite each other in a redirected file.
	return apache.Start(bin, apache.Options{Config: cfg, Environ: environ, Stdout: onlyWriter{stdout}, Stderr: onlyWriter{stderr}})
}

// docRootDir checks -docroot: empty, or a folder, made absolute for
// Apache's DocumentRoot.
func docRootDir(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(abs); err == nil && !fi.IsDir() {
			err = errors.New("not a folder")
		}
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is the flag's, named once
	}
	if err != nil {
		return "", fmt.Errorf("serve: -docroot %q: %w", dir, err)
	}
	return abs, nil
}
