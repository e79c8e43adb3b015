package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apache"
)

// The benchmark's request: a FORM GET whose two fields need decoding
// (UTF-8 octets, '+' for space) and escaping (<, &).
const (
	QueryValue = "café <b> & 印刷"
	LangValue  = "fr"
)

// Query is the QUERY_STRING every peer answers (RFC 3875 section 4.1.7),
// encoded by net/url, not by anything under test.
var Query = "q=" + url.QueryEscape(QueryValue) + "&lang=" + url.QueryEscape(LangValue)

// Want is what every peer must print for Query.
var Want = []Field{{"q", QueryValue}, {"lang", LangValue}}

// FastCGIPath is where a server from StartApache proxies to cgigate -fcgi,
// FastCGIUnixPath where one from StartBackends proxies to a second on a
// Unix socket.
const (
	FastCGIPath     = "/fcgi/cgigate"
	FastCGIUnixPath = "/fcgi/cgigate-unix"
)

// Server is one Apache with the peers in its cgi-bin.
type Server struct {
	Setup  Setup
	Apache *apache.Server
	// FastCGI is true when FastCGIPath reaches a cgigate -fcgi.
	FastCGI bool
	// Static is true when StaticPath is cgigate's page as a file.
	Static bool
	// cpu reads, per target, the CPU its long-lived backend has used:
	// PHPFPM, GatewayFUnix and PHPFPMUnix are served when they have an
	// entry.
	cpu map[string]func() (time.Duration, error)
}

// URL returns the URL that reaches peer (a cgi-bin name or GatewayF) with
// Query.
func (s *Server) URL(peer string) string {
	switch peer {
	case GatewayF:
		return s.Apache.URL + FastCGIPath + "?" + Query
	case PHPFPM:
		return s.Apache.URL + PHPPath + "?" + Query
	case GatewayFUnix:
		return s.Apache.URL + FastCGIUnixPath + "?" + Query
	case PHPFPMUnix:
		return s.Apache.URL + PHPUnixPath + "?" + Query
	case Static:
		return s.Apache.URL + StaticPath
	}
	return s.Apache.URL + s.Apache.CGIPath(peer) + "?" + Query
}

// Targets returns what the load rounds run on s, in table order: the
// peers, the references and, when s proxies FastCGI, GatewayF, then
// PHPFPM, GatewayFUnix, PHPFPMUnix and Static when s has them.
func (s *Server) Targets() []string {
	return slices.DeleteFunc(tableOrder(), func(name string) bool {
		switch name {
		case GatewayF:
			return !s.FastCGI
		case Static:
			return !s.Static
		case PHPFPM, GatewayFUnix, PHPFPMUnix:
			return s.cpu[name] == nil
		}
		return false
	})
}

// backendCPU is the CPU the long-lived backend of peer has used so far;
// ok is false for a peer without one (a CGI program, the static file).
func (s *Server) backendCPU(peer string) (d time.Duration, ok bool) {
	read := s.cpu[peer]
	if read == nil {
		return 0, false
	}
	d, err := read()
	return d, err == nil
}

// wrk runs l against peer on s and, when peer has a long-lived backend,
// sets the sample's CPU to what that backend used per request over the run.
func (s *Server) wrk(ctx context.Context, peer string, l Load) (Sample, error) {
	before, ok := s.backendCPU(peer)
	smp, err := Wrk(ctx, l)
	if after, ok2 := s.backendCPU(peer); ok && ok2 && err == nil && smp.Requests > 0 {
		smp.CPU = (after - before) / time.Duration(smp.Requests)
	}
	return smp, err
}

// Stop stops Apache by its pid and removes its ServerRoot.
func (s *Server) Stop() error { return s.Apache.Stop() }

// StartApache starts Apache as setup says (the binary found as apache.FindBinary finds
// it; apache.ErrNoApache when there is none), the programs of peers (name
// -> path) in its cgi-bin, and, when fcgiAddr is not empty, FastCGIPath
// proxied to it (mod_proxy_fcgi), in a fresh ServerRoot that Stop removes.
// LogLevel is warn: an error log line per request would be part of what
// is measured. It returns errors rather than taking a testing.TB, so that
// internal/cmd/cgibench and tests share it.
func StartApache(setup Setup, peers map[string]string, fcgiAddr string) (*Server, error) {
	cfg := httpdconf.Config{MPM: setup.MPM, CGIModule: setup.CGIModule, LogLevel: "warn", FastCGI: fcgiAddr}
	if fcgiAddr != "" {
		cfg.FastCGIPath = FastCGIPath
	}
	return startApache(setup, apache.Options{Config: cfg, CGI: peers})
}

func startApache(setup Setup, opts apache.Options) (*Server, error) {
	bin, err := apache.FindBinary(os.Getenv, exec.LookPath, fileExists)
	if err != nil {
		return nil, err
	}
	a, err := apache.Start(bin, opts)
	if err != nil {
		return nil, err
	}
	return &Server{Setup: setup, Apache: a, FastCGI: opts.Config.FastCGI != ""}, nil
}

// Backends are the long-lived programs and files a server from
// StartBackends serves beside its cgi-bin.
type Backends struct {
	// FastCGI is cgigate -fcgi, proxied at FastCGIPath; required.
	FastCGI *FastCGI
	// PHPFPM, when not nil, is proxied at PHPPath without enablereuse,
	// as mod_proxy_fcgi's manual has sites proxy it: each PHP-FPM worker
	// serves one connection at a time, so a pool of kept connections
	// larger than its workers (ThreadsPerChild per Apache child) holds
	// requests waiting. cgigate's, from httpdconf, keeps its connections.
	PHPFPM *FPM
	// FastCGIUnix and PHPFPMUnix, when not nil, are a second cgigate
	// -fcgi and PHP-FPM pool on Unix sockets, proxied at FastCGIUnixPath
	// as httpdconf renders a socket (enablereuse=on) and at PHPUnixPath
	// as Debian's php8.2-fpm.conf does (without), so that each pairing,
	// TCP and socket, compares like with like.
	FastCGIUnix *FastCGI
	PHPFPMUnix  *FPM
	// StaticPage, when not nil, is served as a file at StaticPath.
	StaticPage []byte
}

// StartBackends is StartApache with b beside the peers: the load rounds
// then also measure, for the FastCGI backends, the CPU their processes use
// per request.
func StartBackends(setup Setup, peers map[string]string, b Backends) (*Server, error) {
	cfg := httpdconf.Config{MPM: setup.MPM, CGIModule: setup.CGIModule, LogLevel: "warn", FastCGI: b.FastCGI.Addr, FastCGIPath: FastCGIPath}
	opts := apache.Options{Config: cfg, CGI: peers}
	var directives []string
	if b.PHPFPM != nil {
		directives = append(directives, b.PHPFPM.directives(PHPPath))
	}
	if b.FastCGIUnix != nil {
		pass, err := proxyPass(b.FastCGIUnix.Addr, FastCGIUnixPath)
		if err != nil {
			return nil, err
		}
		directives = append(directives, "# cgigate -fcgi on a Unix socket, as httpdconf proxies it.\n"+pass)
	}
	if b.PHPFPMUnix != nil {
		directives = append(directives, b.PHPFPMUnix.directives(PHPUnixPath))
	}
	opts.Directives = strings.Join(directives, "\n")
	if b.StaticPage != nil {
		opts.Files = map[string][]byte{strings.TrimPrefix(StaticPath, "/"): b.StaticPage}
	}
	s, err := startApache(setup, opts)
	if err != nil {
		return nil, err
	}
	s.cpu = map[string]func() (time.Duration, error){GatewayF: b.FastCGI.CPU}
	if b.PHPFPM != nil {
		s.cpu[PHPFPM] = b.PHPFPM.CPU
	}
	if b.FastCGIUnix != nil {
		s.cpu[GatewayFUnix] = b.FastCGIUnix.CPU
	}
	if b.PHPFPMUnix != nil {
		s.cpu[PHPFPMUnix] = b.PHPFPMUnix.CPU
	}
	s.Static = b.StaticPage != nil
	return s, nil
}

// proxyPass is the ProxyPass line httpdconf renders for FastCGI at addr
// on path, so that a second cgigate -fcgi is proxied as a deployment's
// would be, with the same options.
func proxyPass(addr, path string) (string, error) {
	var b strings.Builder
	if err := (httpdconf.Config{FastCGI: addr, FastCGIPath: path}).Render(&b); err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	for line := range strings.Lines(b.String()) {
		if strings.HasPrefix(line, "ProxyPass ") {
			return strings.TrimSuffix(line, "\n"), nil
		}
	}
	return "", fmt.Errorf("bench: httpdconf rendered no ProxyPass for %s", addr)
}

// StaticPage is cgigate's HTML answer to Query, run as a CGI program,
// without its CGI header: the page Static serves.
func StaticPage(gateway string) ([]byte, error) {
	cmd := exec.Command(gateway)
	cmd.Env = CGIEnv(Gateway, Query, "text/html")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("bench: %s: %w", gateway, err)
	}
	_, body, ok := bytes.Cut(out, []byte("\r\n\r\n"))
	if !ok {
		_, body, ok = bytes.Cut(out, []byte("\n\n"))
	}
	if !ok {
		return nil, fmt.Errorf("bench: %s printed no CGI header: %.200q", gateway, out)
	}
	return body, nil
}

// FastCGI is a running "cgigate -fcgi ADDR", the gateway's FastCGI mode
// measured beside its CGI mode.
type FastCGI struct {
	// Addr is where it listens, 127.0.0.1:PORT or a socket's absolute
	// path, for StartApache.
	Addr  string
	child *apache.Child
}

// Stop stops it by its pid (SIGTERM, then SIGKILL after apache.StopBound).
func (f *FastCGI) Stop() error { return f.child.Stop() }

// StartFastCGI starts "gateway -fcgi 127.0.0.1:PORT" on a free port, with
// env added to its environment, and waits until it says it listens.
func StartFastCGI(gateway string, env []string) (*FastCGI, error) {
	port, err := apache.FreePort()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return startFastCGI(gateway, "127.0.0.1:"+strconv.Itoa(port), env)
}

// StartFastCGIUnix is StartFastCGI on the Unix socket sock, an absolute
// path in a folder Apache's user can search. The gateway creates the
// socket with the umask's mode (0755 under the usual 022), and connecting
// needs write permission: as root, Apache's children are www-data, so the
// socket is then made writable by all, as apache.Mkdir sets a folder's
// mode whatever the umask.
func StartFastCGIUnix(gateway, sock string, env []string) (*FastCGI, error) {
	f, err := startFastCGI(gateway, sock, env)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(sock, 0o666); err != nil {
		f.Stop()
		return nil, fmt.Errorf("bench: %w", err)
	}
	return f, nil
}

func startFastCGI(gateway, addr string, env []string) (*FastCGI, error) {
	cmd := exec.Command(gateway, "-fcgi", addr)
	cmd.Env = append(cleanEnv(), env...)
	out, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, os.Stderr
	cmd.WaitDelay = apache.StopBound
	c, err := apache.StartChild(gateway+" -fcgi", cmd)
	if err != nil {
		return nil, fmt.Errorf("bench: %s -fcgi: %w", gateway, err)
	}
	go func() { <-c.Done(); w.Close() }()
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() && strings.Contains(sc.Text(), "FastCGI on") {
			ready <- nil
		} else {
			ready <- fmt.Errorf("bench: %s -fcgi %s printed %q", gateway, addr, sc.Text())
		}
		for sc.Scan() { // keep the pipe drained
		}
	}()
	select {
	case err = <-ready:
	case <-time.After(10 * time.Second):
		err = fmt.Errorf("bench: %s -fcgi %s did not start within 10s", gateway, addr)
	}
	if err != nil {
		c.Stop()
		return nil, err
	}
	return &FastCGI{Addr: addr, child: c}, nil
}

// cleanEnv is the environment child programs get: PATH and TMPDIR only,
// so that the caller's variables do not change what is measured.
func cleanEnv() []string {
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	if d := os.Getenv("TMPDIR"); d != "" {
		env = append(env, "TMPDIR="+d)
	}
	return env
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
