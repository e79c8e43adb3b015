package fcgi

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/cgi"
)

// echo answers with the request's method and its whole body, or with the
// error reading it.
var echo = cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			cgi.WriteError(w, r, err)
			return
		}
	}
	cgi.Respond(w, cgi.StatusOK, cgi.Text, fmt.Appendf(nil, "%s %q", r.Method, body))
})

// record is one FastCGI record as the web server reads it.
type record struct {
	typ     byte
	id      uint16
	content []byte
}

// client is the web server's side of one connection.
type client struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

// serve starts Serve with echo under l on a loopback listener and dials it.
func serve(t *testing.T, l cgi.Limits) *client {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go Serve(ln, echo, l)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// Every test ends well within this; a server that never answers
	// fails the test rather than hanging it.
	c.SetDeadline(time.Now().Add(5 * time.Second))
	return &client{t: t, c: c, br: bufio.NewReader(c)}
}

// send writes the records, each as appendRecord encodes it (content of
// more than 65535 bytes is cut into several records).
func (c *client) send(recs ...record) {
	c.t.Helper()
	var b []byte
	for _, r := range recs {
		content := r.content
		for {
			k := min(len(content), maxContent)
			b = appendRecord(b, r.typ, r.id, content[:k])
			content = content[k:]
			if len(content) == 0 {
				break
			}
		}
	}
	if _, err := c.c.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// read reads one record; io.EOF when the server has closed.
func (c *client) read() (record, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(c.br, h[:]); err != nil {
		return record{}, err
	}
	n, pad := int(binary.BigEndian.Uint16(h[4:])), int(h[6])
	b := make([]byte, n+pad)
	if _, err := io.ReadFull(c.br, b); err != nil {
		return record{}, err
	}
	if h[0] != 1 {
		return record{}, fmt.Errorf("record version %d", h[0])
	}
	return record{h[1], binary.BigEndian.Uint16(h[2:]), b[:n]}, nil
}

// answer reads records up to request id's FCGI_END_REQUEST and returns
// its stdout stream, its protocol status and every other record read.
func (c *client) answer(id uint16) (stdout string, status byte, others []record) {
	c.t.Helper()
	var out strings.Builder
	for {
		r, err := c.read()
		if err != nil {
			c.t.Fatalf("reading request %d's answer: %v (so far %q, %v)", id, err, out.String(), others)
		}
		switch {
		case r.id == id && r.typ == typeStdout:
			out.Write(r.content)
		case r.id == id && r.typ == typeEndRequest:
			return out.String(), r.content[4], others
		default:
			others = append(others, r)
		}
	}
}

// closed reports whether the server closed the connection, reading
// nothing more first.
func (c *client) closed() bool {
	c.t.Helper()
	r, err := c.read()
	if err == nil {
		c.t.Errorf("a record %+v after the answer", r)
	}
	return errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || isReset(err)
}

func isReset(err error) bool { return err != nil && strings.Contains(err.Error(), "connection reset") }

func begin(id uint16, keep bool) record {
	var flags byte
	if keep {
		flags = flagKeepConn
	}
	return record{typeBeginRequest, id, []byte{0, roleResponder, flags, 0, 0, 0, 0, 0}}
}

// pairs encodes name-value pairs (§ 3.4).
func pairs(kv ...string) []byte {
	var b []byte
	size := func(n int) {
		if n < 128 {
			b = append(b, byte(n))
			return
		}
		b = binary.BigEndian.AppendUint32(b, uint32(n)|1<<31)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		size(len(kv[i]))
		size(len(kv[i+1]))
		b = append(b, kv[i]+kv[i+1]...)
	}
	return b
}

// request is a whole GET (or, with a body, POST) request id.
func request(id uint16, keep bool, body string) []record {
	params := pairs("REQUEST_METHOD", "GET", "HTTP_ACCEPT", "text/plain")
	if body != "" {
		params = pairs("REQUEST_METHOD", "POST", "HTTP_ACCEPT", "text/plain", "CONTENT_LENGTH", fmt.Sprint(len(body)))
	}
	recs := []record{begin(id, keep), {typeParams, id, params}, {typeParams, id, nil}}
	if body != "" {
		recs = append(recs, record{typeStdin, id, []byte(body)})
	}
	return append(recs, record{typeStdin, id, nil})
}

// status is the status of a CGI answer.
func status(t *testing.T, answer string) int {
	t.Helper()
	var code int
	if _, err := fmt.Sscanf(answer, "Status: %d", &code); err != nil {
		t.Fatalf("no Status line in %q", answer)
	}
	return code
}

func TestKeptConnectionsServeOneRequestAfterAnother(t *testing.T) {
	tests := []struct {
		name string
		ids  []uint16
		keep bool
	}{
		{"requests of one id follow each other with FCGI_KEEP_CONN", []uint16{1, 1, 1}, true},
		{"a second request id follows the first with FCGI_KEEP_CONN", []uint16{1, 2, 7}, true},
		{"without FCGI_KEEP_CONN the connection closes after the answer", []uint16{1}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, cgi.Limits{})
			for i, id := range tc.ids {
				c.send(request(id, tc.keep, fmt.Sprint("body ", i))...)
				out, st, others := c.answer(id)
				if want := fmt.Sprintf("POST %q", fmt.Sprint("body ", i)); st != statusRequestComplete || !strings.HasSuffix(out, want) || others != nil {
					t.Fatalf("request %d (id %d): status %d, answer %q, other records %v; want %s", i, id, st, out, others, want)
				}
			}
			if !tc.keep && !c.closed() {
				t.Error("the connection is still open")
			}
		})
	}
}

func TestManagementRecords(t *testing.T) {
	tests := []struct {
		name string
		rec  record
		want record
	}{
		{"FCGI_GET_VALUES is answered with the variables it names that the server knows",
			record{typeGetValues, 0, pairs("FCGI_MAX_CONNS", "", "FCGI_MPXS_CONNS", "", "FCGI_MAX_REQS", "")},
			record{typeGetValuesResult, 0, pairs("FCGI_MPXS_CONNS", "0")}},
		{"FCGI_GET_VALUES naming no variable the server knows gets an empty result",
			record{typeGetValues, 0, pairs("FCGI_MAX_REQS", "", "X_OTHER", "")},
			record{typeGetValuesResult, 0, nil}},
		{"an unknown management record is answered FCGI_UNKNOWN_TYPE with its type",
			record{42, 0, []byte("whatever")},
			record{typeUnknownType, 0, []byte{42, 0, 0, 0, 0, 0, 0, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, cgi.Limits{})
			c.send(tc.rec)
			got, err := c.read()
			if err != nil || got.typ != tc.want.typ || got.id != 0 || !bytes.Equal(got.content, tc.want.content) {
				t.Fatalf("got %+v (%v), want %+v", got, err, tc.want)
			}
			// And the connection goes on.
			c.send(request(1, false, "")...)
			if out, _, _ := c.answer(1); status(t, out) != 200 {
				t.Errorf("the request after it: %q", out)
			}
		})
	}
}

// One request at a time (FCGI_MPXS_CONNS 0): a second begun on the
// connection is refused with FCGI_CANT_MPX_CONN (§ 5.5), whenever it
// comes, and the first is answered.
func TestASecondRequestOnTheConnectionIsRefused(t *testing.T) {
	first := request(1, true, "abc")
	tests := []struct {
		name  string
		after int // records of the first request sent before the second's
	}{
		{"while the first's params are read", 2},
		{"while the first's body is read", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, cgi.Limits{})
			second := request(2, true, "zzz")
			c.send(first[:tc.after]...)
			c.send(second...)
			c.send(first[tc.after:]...)
			out, st, others := c.answer(1)
			if st != statusRequestComplete || !strings.HasSuffix(out, `POST "abc"`) {
				t.Errorf("the first request: status %d answer %q", st, out)
			}
			if len(others) == 0 {
				// Refused as the rest of the first's body is read, after
				// its answer.
				r, err := c.read()
				if err != nil {
					t.Fatal(err)
				}
				others = append(others, r)
			}
			if len(others) != 1 || others[0].typ != typeEndRequest || others[0].id != 2 || others[0].content[4] != statusCantMpxConn {
				t.Errorf("other records %+v, want one FCGI_END_REQUEST of request 2 with FCGI_CANT_MPX_CONN", others)
			}
		})
	}
}

// § 5.4: after FCGI_ABORT_REQUEST the application ends the request at
// once, with FCGI_END_REQUEST; the web server reads no answer.
func TestAnAbortedRequestIsEndedAtOnce(t *testing.T) {
	params := pairs("REQUEST_METHOD", "POST", "CONTENT_LENGTH", "10", "HTTP_ACCEPT", "text/plain")
	tests := []struct {
		name string
		recs []record
	}{
		{"aborted while its params are read", []record{begin(1, true), {typeParams, 1, params}, {typeAbortRequest, 1, nil}}},
		{"aborted while its body is read", []record{begin(1, true), {typeParams, 1, params}, {typeParams, 1, nil},
			{typeStdin, 1, []byte("abc")}, {typeAbortRequest, 1, nil}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, cgi.Limits{})
			c.send(tc.recs...)
			out, st, others := c.answer(1)
			if out != "" || st != statusRequestComplete || others != nil {
				t.Errorf("stdout %q, status %d, other records %v; want only FCGI_END_REQUEST, FCGI_REQUEST_COMPLETE", out, st, others)
			}
			c.send(request(2, false, "")...)
			if out, _, _ := c.answer(2); status(t, out) != 200 {
				t.Errorf("the next request: %q", out)
			}
		})
	}
}

// Parameters past maxParams are read on without being kept, and the
// request is answered 431 in the format it asked for; the connection goes
// on.
func TestParamsOverTheCapAre431(t *testing.T) {
	big := strings.Repeat("x", maxParams)
	tests := []struct {
		name     string
		params   []byte
		wantType string
	}{
		{"a header past the cap, after the method and Accept", pairs("REQUEST_METHOD", "GET", "HTTP_ACCEPT", "application/json", "HTTP_X_BIG", big),
			"application/json"},
		{"a header past the cap before anything else", pairs("HTTP_X_BIG", big, "REQUEST_METHOD", "GET"), "text/html"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, cgi.Limits{})
			c.send(begin(1, true), record{typeParams, 1, tc.params}, record{typeParams, 1, nil}, record{typeStdin, 1, nil})
			out, st, _ := c.answer(1)
			if status(t, out) != 431 || st != statusRequestComplete || !strings.Contains(out, "Content-Type: "+tc.wantType) {
				t.Errorf("answer %.300q, status %d; want a 431 in %s", out, st, tc.wantType)
			}
			c.send(request(2, false, "")...)
			if out, _, _ := c.answer(2); status(t, out) != 200 {
				t.Errorf("the next request: %q", out)
			}
		})
	}
}

// A web server that stops sending a body gets the 408 at the read
// timeout, with its FCGI_END_REQUEST, and then the connection, out of
// step, is closed.
func TestAStalledBodyIsAnswered408(t *testing.T) {
	c := serve(t, cgi.Limits{ReadTimeout: 50 * time.Millisecond})
	c.send(begin(1, true), record{typeParams, 1, pairs("REQUEST_METHOD", "POST", "CONTENT_LENGTH", "100", "HTTP_ACCEPT", "text/plain")},
		record{typeParams, 1, nil}, record{typeStdin, 1, []byte("only ten b")})
	out, st, others := c.answer(1)
	if status(t, out) != 408 || st != statusRequestComplete || others != nil {
		t.Errorf("answer %q, status %d, other records %v; want a 408", out, st, others)
	}
	if !c.closed() {
		t.Error("the connection is still open")
	}
}

func TestABrokenStreamClosesTheConnection(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
	}{
		{"a record of version 2", []byte{2, typeBeginRequest, 0, 1, 0, 8, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0}},
		{"a BEGIN_REQUEST of 7 bytes", appendRecord(nil, typeBeginRequest, 1, []byte{0, 1, 1, 0, 0, 0, 0})},
		{"stdin before the end of the params", append(appendRecord(nil, typeBeginRequest, 1, []byte{0, 1, 1, 0, 0, 0, 0, 0}),
			appendRecord(nil, typeStdin, 1, []byte("x"))...)},
		{"params whose pair runs past their end", append(append(appendRecord(nil, typeBeginRequest, 1, []byte{0, 1, 1, 0, 0, 0, 0, 0}),
			appendRecord(nil, typeParams, 1, []byte{5, 5, 'a'})...), appendRecord(nil, typeParams, 1, nil)...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, cgi.Limits{})
			if _, err := c.c.Write(tc.raw); err != nil {
				t.Fatal(err)
			}
			if !c.closed() {
				t.Error("the connection is still open")
			}
		})
	}
}

// No byte sequence panics the server or makes it write anything but
// whole records of the kinds it sends.
func FuzzServeConn(f *testing.F) {
	f.Add(bytes.Join(func() [][]byte {
		var bs [][]byte
		for _, r := range request(1, true, "a=1") {
			bs = append(bs, appendRecord(nil, r.typ, r.id, r.content))
		}
		return bs
	}(), nil))
	f.Add(appendRecord(nil, typeGetValues, 0, pairs("FCGI_MPXS_CONNS", "")))
	f.Add(append(appendRecord(appendRecord(nil, typeBeginRequest, 1, []byte{0, 1, 1, 0, 0, 0, 0, 0}), typeParams, 1, []byte{0x80, 0, 0, 3, 1, 'a', 'b', 'c', 'd'}), 1, typeParams, 0, 1, 0, 0, 0, 0))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	defer ln.Close()
	f.Fuzz(func(t *testing.T, in []byte) {
		client, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		server, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			ServeConn(server, echo, cgi.Limits{ReadTimeout: 100 * time.Millisecond})
		}()
		go func() {
			client.Write(in)
			// The web server has sent all: every read of the server ends.
			client.(*net.TCPConn).CloseWrite()
		}()
		out, _ := io.ReadAll(client)
		<-done
		for len(out) > 0 {
			if len(out) < headerLen || out[0] != 1 {
				t.Fatalf("a broken record: %q", out)
			}
			switch out[1] {
			case typeStdout, typeEndRequest, typeGetValuesResult, typeUnknownType:
			default:
				t.Fatalf("a record of type %d", out[1])
			}
			n := headerLen + int(binary.BigEndian.Uint16(out[4:])) + int(out[6])
			if n > len(out) {
				t.Fatalf("a record cut short: %q", out)
			}
			out = out[n:]
		}
	})
}

// A body is read under the connection's own read deadline, on the
// connection's goroutine: no pump goroutine with its timer and 32 KiB
// buffers for every POST.
func TestABodyCostsNoPump(t *testing.T) {
	c := serve(t, cgi.Limits{})
	post := request(1, true, "a=1&b=2")
	c.send(post...) // the connection's buffers are made
	c.answer(1)
	const n = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		c.send(post...)
		if out, _, _ := c.answer(1); !strings.HasSuffix(out, `POST "a=1&b=2"`) {
			t.Fatalf("answer %q", out)
		}
	}
	runtime.ReadMemStats(&after)
	// Server and client together.
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 16<<10 {
		t.Errorf("%d bytes allocated a POST, want at most %d", per, 16<<10)
	}
}
