package apachetest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apache"
)

// Options say what one test server holds. The zero value is an event MPM
// server with mod_cgid and an empty cgi-bin.
type Options struct {
	// MPM selects prefork/mod_cgi or event/mod_cgid (the default).
	MPM httpdconf.MPM
	// CGIModule, when set, overrides the MPM's CGI module (prefork with
	// mod_cgid).
	CGIModule httpdconf.CGIModule
	// CGI maps a name in cgi-bin to the path of an executable to copy there
	// (mode 0755, so that Apache's www-data children can run it).
	CGI map[string]string
	// Files maps a slash-separated path under DocumentRoot to its content,
	// for static pages such as the HTML forms of browser tests.
	Files map[string][]byte
	// Env holds CGIGATE_* variables set with SetEnv.
	Env map[string]string
	// LimitRequestBody is passed to httpdconf.Config.
	LimitRequestBody int64
	// BodyReadTimeout is passed to httpdconf.Config.
	BodyReadTimeout time.Duration
	// FastCGI and FastCGIPath are passed to httpdconf.Config.
	FastCGI     string
	FastCGIPath string
	// LogLevel defaults to "info" so that failures have CGI errors to show.
	LogLevel string
	// Host is the loopback address to listen on; empty means 127.0.0.1.
	// Several nodes of one site listen on 127.0.0.2, 127.0.0.3, ...
	Host string
	// Balance and BalancePath are passed to httpdconf.Config: a balancing
	// front for those nodes.
	Balance     []string
	BalancePath string
}

// Server is a running Apache httpd: an apache.Server (URL, Root,
// DocumentRoot, CGIBin, ConfigPath, Config, ErrorLog, AccessLog, CGIPath)
// with Do and DoRaw, which fail the test instead of returning errors.
type Server struct {
	*apache.Server
}

// Start starts Apache for t with opts and stops it in t.Cleanup. It skips
// (or fails under CI=true) when Apache is not installed, and fails t when
// the server cannot be set up or does not answer, showing Apache's error log.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin := Binary(t)
	cfg := httpdconf.Config{
		ServerRoot:       Dir(t),
		MPM:              opts.MPM,
		CGIModule:        opts.CGIModule,
		Env:              opts.Env,
		LimitRequestBody: opts.LimitRequestBody,
		BodyReadTimeout:  opts.BodyReadTimeout,
		FastCGI:          opts.FastCGI,
		FastCGIPath:      opts.FastCGIPath,
		LogLevel:         opts.LogLevel,
		Host:             opts.Host,
		Balance:          opts.Balance,
		BalancePath:      opts.BalancePath,
	}
	if cfg.LogLevel == "" {
		cfg.LogLevel = "info"
	}
	s, err := apache.Start(bin, apache.Options{Config: cfg, CGI: opts.CGI, Files: opts.Files})
	if err != nil {
		fatal(t, err)
	}
	return stopAtCleanup(t, s)
}

// Process describes an Apache started from a configuration the test laid
// out itself, such as a copy of Debian's /etc/apache2 with a drop-in added.
type Process struct {
	// Args follow the binary, e.g. -d DIR -f FILE; -DFOREGROUND is added.
	Args []string
	// Env holds KEY=VALUE pairs added to the environment (Debian's
	// apache2.conf needs the APACHE_* variables of its envvars file).
	Env []string
	// Port is the 127.0.0.1 port the configuration listens on.
	Port int
	// ErrorLog is the error log's path, shown when something fails.
	ErrorLog string
	// Dir receives startup.log: what Apache prints before it opens ErrorLog.
	Dir string
}

// StartProcess starts Apache as p describes, waits until it answers on
// 127.0.0.1:p.Port and stops it in t.Cleanup. It skips (or fails under
// CI=true) when Apache is not installed.
func StartProcess(t testing.TB, p Process) *Server {
	t.Helper()
	bin := Binary(t)
	s, err := apache.StartProcess(bin, apache.Process{Args: p.Args, Env: p.Env, Port: p.Port, ErrorLog: p.ErrorLog, Dir: p.Dir})
	if err != nil {
		fatal(t, err)
	}
	return stopAtCleanup(t, s)
}

// fatal fails t with err, and for a server that did not come up, with its
// configuration's path and what Apache said.
func fatal(t testing.TB, err error) {
	t.Helper()
	var se *apache.StartError
	switch {
	case !errors.As(err, &se):
		t.Fatalf("apachetest: %v", err)
	case se.ConfigPath != "":
		t.Fatalf("apachetest: %v\nconfig %s\n%s%s", se.Err, se.ConfigPath, se.Startup, se.ErrorLog)
	default:
		t.Fatalf("apachetest: %v\n%s%s", se.Err, se.Startup, se.ErrorLog)
	}
}

func stopAtCleanup(t testing.TB, a *apache.Server) *Server {
	t.Cleanup(func() {
		if err := a.Stop(); err != nil {
			t.Errorf("apachetest: %v\n%s", err, a.ErrorLog())
		}
	})
	return &Server{a}
}

// Response is what Do read back.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends one HTTP/1.1 request whose request-target is written byte for
// byte as given (no client-side re-encoding, unlike net/http), with header
// and body (Content-Length set when body is not nil), and returns the
// response. It fails t, showing the error log, when the exchange fails.
func (s *Server) Do(t testing.TB, method, target string, header http.Header, body []byte) Response {
	t.Helper()
	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, s.addr())
	if body != nil {
		fmt.Fprintf(&req, "Content-Length: %d\r\n", len(body))
	}
	header.Write(&req)
	req.WriteString("\r\n")
	req.Write(body)
	return s.DoRaw(t, req.Bytes())
}

// DoRaw writes raw to the server as is (a whole request, which should ask
// for Connection: close) and reads one response; for requests Do cannot
// express, such as chunked bodies or malformed request lines. It fails t,
// showing the error log, when the exchange fails.
func (s *Server) DoRaw(t testing.TB, raw []byte) Response {
	t.Helper()
	resp, err := s.roundTrip(raw)
	if err != nil {
		line, _, _ := bytes.Cut(raw, []byte("\r\n"))
		t.Fatalf("apachetest: %q: %v\n%s", line, err, s.ErrorLog())
	}
	return resp
}

func (s *Server) addr() string { return strings.TrimPrefix(s.URL, "http://") }

func (s *Server) roundTrip(raw []byte) (Response, error) {
	conn, err := net.DialTimeout("tcp", s.addr(), 5*time.Second)
	if err != nil {
		return Response{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := conn.Write(raw); err != nil {
		return Response{}, err
	}
	method, _, _ := bytes.Cut(raw, []byte(" "))
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: string(method)})
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Response{}, err
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}
