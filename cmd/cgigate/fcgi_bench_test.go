//go:build !cgionly

package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// countingListener counts the Write calls made on the connections it
// accepts: each is one write(2) on the socket.
type countingListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, n: &l.writes}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(p)
}

// fcgiClient is the web server's side of one kept-alive FastCGI
// connection, as mod_proxy_fcgi with enablereuse uses it.
type fcgiClient struct {
	c  net.Conn
	br *bufio.Reader
	// req is the request's records, encoded once.
	req []byte
}

// do sends the request and returns the stdout stream of the answer.
func (c *fcgiClient) do(out *bytes.Buffer) error {
	out.Reset()
	if _, err := c.c.Write(c.req); err != nil {
		return err
	}
	var h [8]byte
	for {
		if _, err := io.ReadFull(c.br, h[:]); err != nil {
			return err
		}
		n := int(binary.BigEndian.Uint16(h[4:])) + int(h[6])
		body := make([]byte, n)
		if _, err := io.ReadFull(c.br, body); err != nil {
			return err
		}
		switch h[1] {
		case 6:
			out.Write(body[:binary.BigEndian.Uint16(h[4:])])
		case 3:
			return nil
		}
	}
}

// apacheParams are the parameters mod_proxy_fcgi sends for the
// benchmark's FORM GET (as Apache 2.4 sets them, with a browser's usual
// request headers).
func apacheParams(query, accept string) map[string]string {
	return map[string]string{
		"HTTP_HOST": "127.0.0.1:8080", "HTTP_ACCEPT": accept, "HTTP_USER_AGENT": "wrk",
		"PATH": "/usr/local/bin:/usr/bin:/bin", "SERVER_SIGNATURE": "", "SERVER_SOFTWARE": "Apache/2.4.62 (Debian)",
		"SERVER_NAME": "127.0.0.1", "SERVER_ADDR": "127.0.0.1", "SERVER_PORT": "8080", "REMOTE_ADDR": "127.0.0.1",
		"DOCUMENT_ROOT": "/srv/htdocs", "REQUEST_SCHEME": "http", "CONTEXT_PREFIX": "", "CONTEXT_DOCUMENT_ROOT": "/srv/htdocs",
		"SERVER_ADMIN": "[no address given]", "SCRIPT_FILENAME": "proxy:fcgi://127.0.0.1:9000/", "REMOTE_PORT": "41234",
		"GATEWAY_INTERFACE": "CGI/1.1", "SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "GET", "QUERY_STRING": query,
		"REQUEST_URI": "/fcgi/cgigate?" + query, "SCRIPT_NAME": "/fcgi/cgigate",
	}
}

// startFCGI serves the gateway over FastCGI on a loopback port, as
// cgigate -fcgi does, and returns a client on one kept-alive connection.
func startFCGI(tb testing.TB, env map[string]string, params map[string]string) (*fcgiClient, *countingListener) {
	tb.Helper()
	cfg, err := loadConfig(env)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	go serveFCGIOn(cl, cfg)
	tb.Cleanup(func() { ln.Close() })
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return &fcgiClient{c: c, br: bufio.NewReader(c), req: fcgiRequestRecords(params, "", true)}, cl
}

// BenchmarkFastCGI answers the benchmark's FORM GET over one kept-alive
// FastCGI connection, as mod_proxy_fcgi sends it, and reports the write
// calls per answer.
//
//	go test -run '^$' -bench FastCGI -benchmem ./cmd/cgigate
func BenchmarkFastCGI(b *testing.B) {
	for _, accept := range []string{"text/html", "application/json"} {
		b.Run(accept, func(b *testing.B) {
			c, cl := startFCGI(b, map[string]string{}, apacheParams("q=caf%C3%A9+%3Cb%3E+%26+%E5%8D%B0%E5%88%B7&lang=fr", accept))
			var out bytes.Buffer
			if err := c.do(&out); err != nil {
				b.Fatal(err)
			}
			cl.writes.Store(0)
			b.ResetTimer()
			for b.Loop() {
				if err := c.do(&out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cl.writes.Load())/float64(b.N), "writes/op")
		})
	}
}

// TestFastCGIAnswers sends requests over one kept-alive FastCGI
// connection, as mod_proxy_fcgi does, and checks each answer against the
// same request answered by the binary in CGI mode: byte for byte, in one
// write call, and in bounded memory.
func TestFastCGIAnswers(t *testing.T) {
	const query = "q=caf%C3%A9+%3Cb%3E+%26+%E5%8D%B0%E5%88%B7&lang=fr"
	tests := []struct {
		name   string
		params map[string]string
		stdin  string
	}{
		{"a form GET with HTML out", apacheParams(query, "text/html"), ""},
		{"a form GET with JSON out", apacheParams(query, "application/json"), ""},
		{"an ISINDEX query", apacheParams("caf%C3%A9+印刷", "text/html"), ""},
		{"the prompt page", apacheParams("", "text/html"), ""},
		{"a HEAD request", with(apacheParams(query, "text/html"), "REQUEST_METHOD", "HEAD"), ""},
		{"an urlencoded POST", with(apacheParams("", "application/json"), "REQUEST_METHOD", "POST",
			"CONTENT_TYPE", "application/x-www-form-urlencoded", "CONTENT_LENGTH", "13"), "a=1&b=%E5%8D%B0"[:13]},
		{"a refused body type", with(apacheParams("", "application/json"), "REQUEST_METHOD", "POST",
			"CONTENT_TYPE", "application/xml", "CONTENT_LENGTH", "4"), "<a/>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, cl := startFCGI(t, map[string]string{}, tc.params)
			c.req = fcgiRequestRecords(tc.params, tc.stdin, true)
			cmd := execCommand()
			for k, v := range tc.params {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			cmd.Stdin = strings.NewReader(tc.stdin)
			want, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			for i := range 3 { // the connection is reused
				before := cl.writes.Load()
				if err := c.do(&got); err != nil {
					t.Fatal(err)
				}
				if got.String() != string(want) {
					t.Fatalf("request %d over FastCGI:\n%q\nin CGI mode:\n%q", i, got.String(), want)
				}
				if n := cl.writes.Load() - before; n != 1 {
					t.Errorf("request %d: answer in %d write calls, want 1", i, n)
				}
			}
		})
	}
	t.Run("an answer allocates less than net/http/fcgi's own 64 KiB buffer", func(t *testing.T) {
		c, _ := startFCGI(t, map[string]string{}, apacheParams(query, "text/html"))
		var out bytes.Buffer
		const n = 200
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range n {
			if err := c.do(&out); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		// Client and server together: the client's part is a few hundred
		// bytes a record.
		if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 32<<10 {
			t.Errorf("%d bytes allocated per request, want at most %d", per, 32<<10)
		}
	})
}

// with returns m with the pairs kv set.
func with(m map[string]string, kv ...string) map[string]string {
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}
