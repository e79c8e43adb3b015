package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fcgiRecord appends one record of type typ (FastCGI 1.0 § 3.3) to b.
func fcgiRecord(b []byte, typ byte, id uint16, content []byte) []byte {
	b = append(b, 1, typ, byte(id>>8), byte(id), byte(len(content)>>8), byte(len(content)), 0, 0)
	return append(b, content...)
}

// fcgiRequestRecords encodes a responder request (FastCGI 1.0 § 5-6):
// BEGIN_REQUEST, PARAMS, the empty PARAMS, STDIN and the empty STDIN.
// With keepConn the application keeps the connection open after it, as
// mod_proxy_fcgi with enablereuse asks.
func fcgiRequestRecords(params map[string]string, stdin string, keepConn bool) []byte {
	var p bytes.Buffer
	length := func(n int) {
		if n < 128 {
			p.WriteByte(byte(n))
			return
		}
		binary.Write(&p, binary.BigEndian, uint32(n)|1<<31)
	}
	for k, v := range params {
		length(len(k))
		length(len(v))
		p.WriteString(k + v)
	}
	var flags byte
	if keepConn {
		flags = 1 // FCGI_KEEP_CONN
	}
	b := fcgiRecord(nil, 1, 1, []byte{0, 1, flags, 0, 0, 0, 0, 0}) // BEGIN_REQUEST, role RESPONDER
	b = fcgiRecord(b, 4, 1, p.Bytes())                             // PARAMS
	b = fcgiRecord(b, 4, 1, nil)
	if stdin != "" {
		b = fcgiRecord(b, 5, 1, []byte(stdin)) // STDIN
	}
	return fcgiRecord(b, 5, 1, nil)
}

// fcgiRequest sends one FastCGI responder request (FastCGI 1.0 § 5-6) with
// params and stdin to addr (host:port, or a Unix socket's path) and returns what the application wrote on its
// stdout stream: a CGI answer.
func fcgiRequest(t *testing.T, addr string, params map[string]string, stdin string) []byte {
	t.Helper()
	network := "tcp"
	if strings.Contains(addr, "/") {
		network = "unix"
	}
	c, err := net.Dial(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write(fcgiRequestRecords(params, stdin, false)); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	br := bufio.NewReader(c)
	for {
		h := make([]byte, 8)
		if _, err := io.ReadFull(br, h); err != nil {
			t.Fatalf("reading a record: %v", err)
		}
		n, pad := binary.BigEndian.Uint16(h[4:]), h[6]
		body := make([]byte, int(n)+int(pad))
		if _, err := io.ReadFull(br, body); err != nil {
			t.Fatal(err)
		}
		switch h[1] {
		case 6: // STDOUT
			out.Write(body[:n])
		case 3: // END_REQUEST
			return out.Bytes()
		}
	}
}

func TestFastCGIMode(t *testing.T) {
	addr := startMode(t, "-fcgi", "cgigate: FastCGI on ")
	params := func(kv ...string) map[string]string {
		m := map[string]string{"REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1", "SCRIPT_NAME": "/cgi-bin/cgigate",
			"REMOTE_ADDR": "192.0.2.1", "REMOTE_PORT": "1234", "HTTP_ACCEPT": "application/json"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	t.Run("a query is answered with the settings of the server process", func(t *testing.T) {
		out := fcgiRequest(t, addr, params("QUERY_STRING", "a=%26%2321360%3B", "REQUEST_URI", "/cgi-bin/cgigate?a=%26%2321360%3B"), "")
		a := parseAnswer(t, out, "")
		r := jsonResult(t, a.body)
		if a.status != 200 || len(r.Fields) != 1 || r.Fields[0].Value != "印" {
			t.Errorf("status %d body %s", a.status, a.body)
		}
	})
	t.Run("a POST body arrives on the FastCGI stdin stream", func(t *testing.T) {
		out := fcgiRequest(t, addr, params("REQUEST_METHOD", "POST", "CONTENT_TYPE", "application/x-www-form-urlencoded", "CONTENT_LENGTH", "7"), "a=1&b=2")
		r := jsonResult(t, parseAnswer(t, out, "").body)
		if !equal(r.Fields, []fieldJSON{{"a", "1", "body"}, {"b", "2", "body"}}) {
			t.Errorf("fields %+v", r.Fields)
		}
	})
	t.Run("a refusal is its status", func(t *testing.T) {
		out := fcgiRequest(t, addr, params("REQUEST_METHOD", "POST", "CONTENT_TYPE", "application/xml", "CONTENT_LENGTH", "4"), "<a/>")
		if a := parseAnswer(t, out, ""); a.status != 415 {
			t.Errorf("status %d body %s", a.status, a.body)
		}
	})
	t.Run("a bad setting stops the server before it listens", func(t *testing.T) {
		out, err := execOut(t, []string{"CGIGATE_MAX_FIELDS=0"}, "-fcgi", "127.0.0.1:0")
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out, "CGIGATE_MAX_FIELDS") {
			t.Errorf("exit %v output %q", err, out)
		}
	})
}

// TestFastCGIOnAUnixSocket serves -fcgi on a path: a Unix socket, as
// mod_proxy_fcgi reaches one with "unix:PATH|fcgi://cgigate/".
func TestFastCGIOnAUnixSocket(t *testing.T) {
	params := map[string]string{"REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1", "SCRIPT_NAME": "/fcgi/cgigate",
		"QUERY_STRING": "a=%E5%8D%B0", "HTTP_ACCEPT": "application/json"}
	tests := []struct {
		name string
		// before lays out the path before the gateway starts.
		before func(t *testing.T, path string)
	}{
		{"a path is a Unix socket that answers", func(t *testing.T, path string) {}},
		{"a socket left by a gateway that was killed is replaced", func(t *testing.T, path string) {
			ln, err := net.Listen("unix", path)
			if err != nil {
				t.Fatal(err)
			}
			ln.(*net.UnixListener).SetUnlinkOnClose(false)
			ln.Close()
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("the stale socket is not there: %v", err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "fcgi.sock")
			tc.before(t, path)
			if got := startModeOn(t, "-fcgi", path, "cgigate: FastCGI on "); got != path {
				t.Errorf("it says it listens on %q, want %q", got, path)
			}
			r := jsonResult(t, parseAnswer(t, fcgiRequest(t, path, params, ""), "").body)
			if len(r.Fields) != 1 || r.Fields[0].Value != "印" {
				t.Errorf("fields %+v", r.Fields)
			}
		})
	}
	t.Run("a socket a server accepts on is not taken over", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "fcgi.sock")
		ln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		out, err := execOut(t, nil, "-fcgi", path)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out, "accepts connections on it already") {
			t.Errorf("exit %v output %q", err, out)
		}
		if c, err := net.Dial("unix", path); err != nil {
			t.Errorf("the first server's socket is gone: %v", err)
		} else {
			c.Close()
		}
	})
}
