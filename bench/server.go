package bench

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
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

// FastCGIPath is where a server from StartApache proxies to cgigate -fcgi.
const FastCGIPath = "/fcgi/cgigate"

// Server is one Apache with the peers in its cgi-bin.
type Server struct {
	MPM    httpdconf.MPM
	Apache *apachetest.Server
	// FastCGI is true when FastCGIPath reaches a cgigate -fcgi.
	FastCGI bool
}

// URL returns the URL that reaches peer (a cgi-bin name or GatewayF) with
// Query.
func (s *Server) URL(peer string) string {
	if peer == GatewayF {
		return s.Apache.URL + FastCGIPath + "?" + Query
	}
	return s.Apache.URL + s.Apache.CGIPath(peer) + "?" + Query
}

// Peers returns the peers s serves, in table order.
func (s *Server) Peers() []string {
	p := append([]string(nil), PeerNames...)
	if s.FastCGI {
		p = append(p, GatewayF)
	}
	return p
}

// StartApache starts Apache with mpm for t, the programs of peers (name ->
// path) in its cgi-bin, and, when fcgiAddr is not empty, FastCGIPath
// proxied to it (mod_proxy_fcgi). LogLevel is warn: an error log line per
// request would be part of what is measured.
func StartApache(t testing.TB, mpm httpdconf.MPM, peers map[string]string, fcgiAddr string) *Server {
	t.Helper()
	opts := apachetest.Options{MPM: mpm, CGI: peers, LogLevel: "warn", FastCGI: fcgiAddr}
	if fcgiAddr != "" {
		opts.FastCGIPath = FastCGIPath
	}
	return &Server{MPM: mpm, Apache: apachetest.Start(t, opts), FastCGI: fcgiAddr != ""}
}

// StartFastCGI starts "gateway -fcgi 127.0.0.1:PORT" for t, with env
// added to its environment, waits until it listens and stops it (by its
// pid) when t ends. It returns the address.
func StartFastCGI(t testing.TB, gateway string, env []string) string {
	t.Helper()
	port, err := apachetest.FreePort()
	if err != nil {
		t.Fatalf("bench: %v", err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(gateway, "-fcgi", addr)
	cmd.Env = append(cleanEnv(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatalf("bench: %v", err)
	}
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("bench: %s -fcgi: %v", gateway, err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() && strings.Contains(sc.Text(), "FastCGI on") {
			ready <- nil
		} else {
			ready <- fmt.Errorf("bench: %s -fcgi %s printed %q", gateway, addr, sc.Text())
		}
		for sc.Scan() {
		}
	}()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("bench: %s -fcgi %s did not start within 10s", gateway, addr)
	}
	return addr
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
