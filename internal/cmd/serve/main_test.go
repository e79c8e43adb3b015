package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/apachetest"
)

func TestSplitAddr(t *testing.T) {
	tests := []struct {
		name, addr string
		host       string
		port       int
		err        bool
	}{
		{name: "the default address is loopback port 8080", addr: defaultAddr, host: "127.0.0.1", port: 8080},
		{name: "an IPv6 address in brackets is accepted", addr: "[::1]:9000", host: "::1", port: 9000},
		{name: "a host name is refused, since Listen takes an address", addr: "localhost:8080", err: true},
		{name: "a missing port is refused", addr: "127.0.0.1", err: true},
		{name: "port zero is refused, since the URL must be printed before Apache listens", addr: "127.0.0.1:0", err: true},
		{name: "a port above 65535 is refused", addr: "127.0.0.1:65536", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host, port, err := splitAddr(tt.addr)
			var ae *AddrError
			if tt.err != (err != nil) || host != tt.host || port != tt.port || (err != nil && !errors.As(err, &ae)) {
				t.Errorf("splitAddr(%q) = %q, %d, %v; want %q, %d, error %v", tt.addr, host, port, err, tt.host, tt.port, tt.err)
			}
			if err != nil && !strings.Contains(err.Error(), tt.addr) {
				t.Errorf("the error %q does not name the input %q", err, tt.addr)
			}
		})
	}
}

func TestGatewayEnv(t *testing.T) {
	got := gatewayEnv([]string{"PATH=/bin", "CGIGATE_NCR=1", "CGIGATE_CHARSET=", "XCGIGATE_A=1", "CGIGATE_RECORD=/tmp/a=b"})
	want := map[string]string{"CGIGATE_NCR": "1", "CGIGATE_RECORD": "/tmp/a=b"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("gatewayEnv = %v, want %v (CGIGATE_* with a value only)", got, want)
	}
}

func TestApacheConfigRendersEventCGIDWithTheSettings(t *testing.T) {
	cfg := apacheConfig("/tmp/root", "/usr/lib/apache2/modules", "www-data", "www-data", "127.0.0.1", 8080,
		map[string]string{"CGIGATE_NCR": "1"})
	var b bytes.Buffer
	if err := cfg.Render(&b); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Listen 127.0.0.1:8080", "LoadModule mpm_event_module", "LoadModule cgid_module", `SetEnv CGIGATE_NCR "1"`, "User www-data"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("the config lacks %q:\n%s", w, b.String())
		}
	}
}

func Example_openURL() {
	fmt.Println(openURL("127.0.0.1", 8080))
	// Output: http://127.0.0.1:8080/cgi-bin/cgigate
}

// serveBin builds this command once for the end-to-end tests.
func serveBin(t *testing.T) string {
	t.Helper()
	return apachetest.BuildGo(t, ".")
}

// session is one run of the serve binary.
type session struct {
	cmd    *exec.Cmd
	lines  chan string
	out    strings.Builder // every stdout line so far, for failure messages
	stderr bytes.Buffer
	done   chan error
}

func startServe(t *testing.T, bin string, env []string, args ...string) *session {
	t.Helper()
	s := &session{lines: make(chan string, 1000), done: make(chan error, 1)}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Env = append(os.Environ(), env...)
	s.cmd.Stderr = &s.stderr
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
		s.done <- s.cmd.Wait()
	}()
	t.Cleanup(func() { s.cmd.Process.Signal(syscall.SIGTERM) }) // an error once it has exited
	return s
}

// waitFor returns the first stdout line with prefix, or fails t when the
// command ends (or twice apache.StartBound passes) first.
func (s *session) waitFor(t *testing.T, prefix string) string {
	t.Helper()
	timeout := time.After(2 * apache.StartBound) // includes building the gateway
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				t.Fatalf("serve ended before printing %q; stdout:\n%s\nstderr:\n%s", prefix, s.out.String(), s.stderr.String())
			}
			s.out.WriteString(l + "\n")
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-timeout:
			t.Fatalf("serve printed no %q; stdout:\n%s\nstderr:\n%s", prefix, s.out.String(), s.stderr.String())
		}
	}
}

// interrupt sends SIGINT (Ctrl-C) and returns the exit status.
func (s *session) interrupt(t *testing.T) int {
	t.Helper()
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	go func() {
		for range s.lines {
		}
	}()
	select {
	case err := <-s.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(2 * apache.StopBound):
		s.cmd.Process.Kill()
		t.Fatalf("serve did not stop on Ctrl-C; stderr:\n%s", s.stderr.String())
	}
	return -1
}

// TestServeWithoutApache runs the command in-process on a machine where
// no Apache is found: it must say so, serve with Go's own CGI host, and
// stop when its context is cancelled (as by Ctrl-C).
func TestServeWithoutApache(t *testing.T) {
	port, err := apache.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	absent := machine{
		lookPath: func(name string) (string, error) { return "", exec.ErrNotFound },
		exists:   func(string) bool { return false },
	}
	environ := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "APACHE_BIN=") {
			environ = append(environ, kv)
		}
	}
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() {
		code <- absent.run(ctx, []string{"serve", "-addr", addr}, environ, pw, &stderr)
		pw.Close()
	}()
	var out strings.Builder
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if strings.HasPrefix(sc.Text(), "cgigate: open ") {
			break
		}
	}
	go io.Copy(io.Discard, pr)
	for _, w := range []string{"no Apache httpd found", "Go's own CGI host", "cgigate: open http://" + addr + "/cgi-bin/cgigate"} {
		if !strings.Contains(out.String(), w) {
			t.Fatalf("stdout lacks %q:\n%s\nstderr:\n%s", w, out.String(), stderr.String())
		}
	}
	if status, body := get(t, "http://"+addr+"/cgi-bin/cgigate?a+b", "application/json"); status != http.StatusOK || !strings.Contains(body, `"kind": "isindex"`) {
		t.Errorf("the ISINDEX query: %d %s", status, body)
	}
	cancel()
	if c := <-code; c != 0 {
		t.Errorf("exit status %d after cancel, want 0; stderr:\n%s", c, stderr.String())
	}
	_, rest, _ := strings.Cut(out.String(), "serve: working folder ")
	dir, _, _ := strings.Cut(rest, " ")
	if _, err := os.Stat(dir); dir == "" || !os.IsNotExist(err) {
		t.Errorf("the working folder %q is still there (%v)", dir, err)
	}
}

func get(t *testing.T, url, accept string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: nil}}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServe starts the command on a free port, with Apache and with Go's
// own CGI host, waits for the URL it prints, fetches the prompt page and a
// query decoded with a setting from serve's own environment, then presses
// Ctrl-C: the command must exit 0, having stopped the server (the port no
// longer answers) and removed its working folder.
func TestServe(t *testing.T) {
	bin := serveBin(t)
	modes := []struct {
		name string
		args []string
	}{
		{"under Apache", nil},
		{"under Go's own CGI host with -gohost", []string{"-gohost"}},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			if m.args == nil {
				apachetest.Binary(t) // skips (fails under CI=true) without Apache
			}
			port, err := apache.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
			s := startServe(t, bin, []string{"CGIGATE_NCR=1"}, append([]string{"-addr", addr}, m.args...)...)
			dirLine := s.waitFor(t, "serve: working folder ")
			dir, _, _ := strings.Cut(strings.TrimPrefix(dirLine, "serve: working folder "), " ")
			open := s.waitFor(t, "cgigate: open ")
			want := "http://" + addr + "/cgi-bin/cgigate"
			if got, _, _ := strings.Cut(strings.TrimPrefix(open, "cgigate: open "), " "); got != want {
				t.Fatalf("serve printed %q, want the URL %s", open, want)
			}
			if m.args != nil && !strings.Contains(s.out.String(), "Go's own CGI host") {
				t.Errorf("serve did not say it uses Go's own CGI host:\n%s", s.out.String())
			}

			status, body := get(t, want, "")
			if status != http.StatusOK || !strings.Contains(body, `<form id="isindex"`) {
				t.Errorf("GET %s: %d, want 200 and the ISINDEX prompt:\n%s", want, status, body)
			}
			status, body = get(t, want+"?q=%26%2321360%3B", "application/json")
			if status != http.StatusOK || !strings.Contains(body, `"value": "印"`) {
				t.Errorf("CGIGATE_NCR=1 from serve's environment did not reach the gateway: %d %s", status, body)
			}
			if fi, err := os.Stat(filepath.Join(dir, "cgi-bin", "cgigate")); err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("the gateway in the working folder: %v, %v; want mode 0755", fi, err)
			}

			if code := s.interrupt(t); code != 0 {
				t.Errorf("exit status %d after Ctrl-C, want 0; stderr:\n%s", code, s.stderr.String())
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the working folder %s is still there (%v)", dir, err)
			}
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				t.Errorf("%s still answers after Ctrl-C", addr)
			}
		})
	}
	t.Run("a busy address is refused before anything starts", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		addr := ln.Addr().String()
		s := startServe(t, bin, nil, "-addr", addr)
		err = <-s.done
		for l := range s.lines { // closed before done is sent
			s.out.WriteString(l + "\n")
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(s.stderr.String(), addr) || strings.Contains(s.out.String(), "working folder") {
			t.Errorf("exit %v, stderr %q; want status 1 naming %s, and no working folder made", err, s.stderr.String(), addr)
		}
	})
	t.Run("an APACHE_BIN naming no file is an error, not a fallback", func(t *testing.T) {
		port, err := apache.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		s := startServe(t, bin, []string{"APACHE_BIN=/nonexistent/apache2"}, "-addr", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		err = <-s.done
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(s.stderr.String(), "/nonexistent/apache2") {
			t.Errorf("exit %v, stderr %q; want status 1 naming the path", err, s.stderr.String())
		}
	})
}
