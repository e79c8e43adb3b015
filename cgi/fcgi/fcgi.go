// Package fcgi serves a cgi.Handler as a FastCGI responder (FastCGI 1.0),
// for Apache's mod_proxy_fcgi: each request's parameters are its CGI
// environment and its stdin stream its body, and cgi.ServeEnv answers it,
// so that the answer is the CGI answer byte for byte.
//
// net/http/fcgi is not used: per request it builds an http.Request (which
// package cgihttp then turns back into a cgi.Request), starts a goroutine,
// allocates a 64 KiB buffer and sends the answer in four write calls
// (header, body, end of stream, end of request). Under load those were
// most of the gateway's CPU behind Apache. Here a connection's goroutine
// reads the records, runs the request itself, reads the body from the
// stdin records as the handler asks for it, and sends a small answer with
// its end-of-request record in one write.
//
// One request at a time per connection, as mod_proxy_fcgi sends them:
// FCGI_MPXS_CONNS is 0, a second request begun on a connection is refused
// with FCGI_CANT_MPX_CONN, and its other records are ignored.
package fcgi

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cgigate/cgigate/cgi"
)

// Record types and values of FastCGI 1.0 § 8.
const (
	typeBeginRequest    = 1
	typeAbortRequest    = 2
	typeEndRequest      = 3
	typeParams          = 4
	typeStdin           = 5
	typeStdout          = 6
	typeGetValues       = 9
	typeGetValuesResult = 10
	typeUnknownType     = 11

	roleResponder = 1
	flagKeepConn  = 1

	statusRequestComplete = 0
	statusCantMpxConn     = 1
	statusUnknownRole     = 3

	headerLen  = 8
	maxContent = 65535
)

// maxParams bounds a request's parameters: Apache sends at most 100
// header fields of 8 KiB (LimitRequestFields, LimitRequestFieldSize) and
// its own variables.
const maxParams = 1 << 20

// ErrProtocol is returned (wrapped) for a connection whose records break
// FastCGI 1.0; the connection is closed.
var ErrProtocol = errors.New("fcgi: protocol error")

// ErrAborted is what the body's read error wraps after the web server
// aborted the request (FCGI_ABORT_REQUEST), in a 400 *cgi.Error: the web
// server reads no answer, and the log does not call it a server fault.
var ErrAborted = errors.New("fcgi: request aborted by the web server")

// Serve accepts connections on ln and answers their requests with h under
// l until ln fails; it returns that error. A connection is served by a
// goroutine that has served an earlier one, when one is idle: its stack
// has grown to what a request needs, where a new goroutine's stack grows
// again, copied at each doubling, on its first request (mod_proxy_fcgi
// without enablereuse opens a connection per request). At most maxIdle
// goroutines wait for a connection; the others end.
func Serve(ln net.Listener, h cgi.Handler, l cgi.Limits) error {
	idle := make(chan net.Conn)
	defer close(idle) // the waiting goroutines end
	var waiting atomic.Int32
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		select {
		case idle <- c:
		default:
			go serveConns(newConn(c, h, l), idle, &waiting)
		}
	}
}

// maxIdle bounds the goroutines kept waiting for a connection: a few
// more than Apache's event MPM keeps connections to a backend from one
// child (ThreadsPerChild, 25 by default).
const maxIdle = 64

// serveConns serves cn, then each connection Serve hands it, with the same
// buffers, until there are maxIdle goroutines waiting already.
func serveConns(cn *conn, idle <-chan net.Conn, waiting *atomic.Int32) {
	for {
		cn.serve()
		if waiting.Add(1) > maxIdle {
			waiting.Add(-1)
			return
		}
		c, ok := <-idle
		waiting.Add(-1)
		if !ok {
			return
		}
		if cn.lent {
			cn = newConn(c, cn.h, cn.l)
			continue
		}
		cn.reset(c)
	}
}

// ServeConn answers the requests of one connection, then closes it.
func ServeConn(c net.Conn, h cgi.Handler, l cgi.Limits) {
	newConn(c, h, l).serve()
}

type conn struct {
	c  net.Conn
	br *bufio.Reader
	h  cgi.Handler
	l  cgi.Limits

	hdr    [headerLen]byte
	params []byte            // the current request's PARAMS stream, reused
	env    map[string]string // its pairs, the map reused
	out    []byte            // the answer's records not yet written, reused
	// lent is set when a body's Read may still be running on the
	// deadline pump's goroutine after the connection is closed: the
	// buffers are left to it.
	lent bool
}

func newConn(c net.Conn, h cgi.Handler, l cgi.Limits) *conn {
	return &conn{c: c, br: bufio.NewReaderSize(c, 16<<10), h: h, l: l, env: make(map[string]string, 32)}
}

// reset makes cn serve c, keeping its buffers.
func (cn *conn) reset(c net.Conn) {
	cn.c = c
	cn.br.Reset(c)
}

// serve answers the requests of cn's connection, then closes it.
func (cn *conn) serve() {
	defer cn.c.Close()
	for cn.serveOne() {
	}
}

// header is a record's header as read.
type header struct {
	typ     byte
	id      uint16
	length  int
	padding int
}

func (cn *conn) readHeader() (header, error) {
	if _, err := io.ReadFull(cn.br, cn.hdr[:]); err != nil {
		return header{}, err
	}
	if cn.hdr[0] != 1 {
		return header{}, ErrProtocol
	}
	return header{typ: cn.hdr[1], id: binary.BigEndian.Uint16(cn.hdr[2:]),
		length: int(binary.BigEndian.Uint16(cn.hdr[4:])), padding: int(cn.hdr[6])}, nil
}

// skip discards n bytes of content or padding.
func (cn *conn) skip(n int) error {
	_, err := cn.br.Discard(n)
	return err
}

// serveOne reads the records up to and including one request's, answers
// it, and reports whether the connection goes on.
func (cn *conn) serveOne() bool {
	var id uint16
	var keep bool
	cn.params = cn.params[:0]
	began, over := false, false
	for {
		h, err := cn.readHeader()
		if err != nil {
			return false
		}
		switch {
		case !began && h.typ == typeBeginRequest && h.id != 0:
			var body [8]byte
			if h.length != len(body) {
				return false
			}
			if _, err := io.ReadFull(cn.br, body[:]); err != nil || cn.skip(h.padding) != nil {
				return false
			}
			role := binary.BigEndian.Uint16(body[:])
			if role != roleResponder {
				cn.out = appendEnd(cn.out[:0], h.id, statusUnknownRole)
				if _, err := cn.c.Write(cn.out); err != nil || body[2]&flagKeepConn == 0 {
					return false
				}
				continue
			}
			id, keep, began = h.id, body[2]&flagKeepConn != 0, true
		case !began || h.id != id:
			if cn.other(h) != nil {
				return false
			}
		case h.typ == typeAbortRequest:
			if cn.skip(h.length+h.padding) != nil {
				return false
			}
			cn.out = appendEnd(cn.out[:0], id, statusRequestComplete)
			_, err := cn.c.Write(cn.out)
			return err == nil && keep
		case h.typ == typeParams && h.length > 0:
			if over || len(cn.params)+h.length > maxParams {
				// Read on, bounded by nothing kept, to answer 431.
				over = true
				if cn.skip(h.length+h.padding) != nil {
					return false
				}
				continue
			}
			n := len(cn.params)
			cn.params = append(cn.params, make([]byte, h.length)...)
			if _, err := io.ReadFull(cn.br, cn.params[n:]); err != nil || cn.skip(h.padding) != nil {
				return false
			}
		case h.typ == typeParams:
			if cn.skip(h.padding) != nil {
				return false
			}
			clear(cn.env)
			err := parseParams(cn.params, cn.env)
			if cap(cn.params) > holdOut {
				cn.params = nil // a large request's: not kept
			}
			if over {
				return cn.refuseParams(id, keep)
			}
			if err != nil {
				return false
			}
			return cn.respond(id, keep, cn.h)
		default:
			// STDIN before the end of PARAMS, DATA, or a type we do not
			// know: the stream is out of step.
			return false
		}
	}
}

// other handles a record that is not the current request's (§ 3.3, 4):
// FCGI_GET_VALUES is answered, another management record is
// FCGI_UNKNOWN_TYPE, a second request begun on the connection is refused
// with FCGI_CANT_MPX_CONN (§ 5.5: one request at a time), and the rest of
// that request's records are ignored. Its answers go out in writes of
// their own, whole records, which no answer's records can cut.
func (cn *conn) other(h header) error {
	var b [headerLen + 8]byte
	var rec []byte
	switch {
	case h.id == 0 && h.typ == typeGetValues:
		q := make([]byte, h.length)
		if _, err := io.ReadFull(cn.br, q); err != nil {
			return err
		}
		if err := cn.skip(h.padding); err != nil {
			return err
		}
		rec = appendRecord(nil, typeGetValuesResult, 0, getValues(q))
	case h.id == 0:
		rec = appendRecord(b[:0], typeUnknownType, 0, []byte{h.typ, 0, 0, 0, 0, 0, 0, 0})
	case h.typ == typeBeginRequest:
		rec = appendEnd(b[:0], h.id, statusCantMpxConn)
	}
	if rec == nil || h.typ != typeGetValues {
		if err := cn.skip(h.length + h.padding); err != nil {
			return err
		}
	}
	if rec != nil {
		_, err := cn.c.Write(rec)
		return err
	}
	return nil
}

// getValues answers an FCGI_GET_VALUES query (§ 4.1): the variables it
// names that the server knows, FCGI_MPXS_CONNS ("0": no multiplexing);
// the others, FCGI_MAX_CONNS and FCGI_MAX_REQS among them (no limit is
// set), are left out, as the specification says of names not understood.
func getValues(q []byte) []byte {
	names := map[string]string{}
	parseParams(q, names) // a malformed query's pairs before the fault
	var out []byte
	for name := range names {
		if name == "FCGI_MPXS_CONNS" {
			out = append(out, byte(len(name)), 1)
			out = append(out, name+"0"...)
		}
	}
	return out
}

// refuseParams answers request id, whose parameters were more than
// maxParams bytes, 431, in the format its Accept header asks for when that
// came within the bytes kept.
func (cn *conn) refuseParams(id uint16, keep bool) bool {
	if cn.env["REQUEST_METHOD"] == "" {
		// Cut before the method: the refusal is all it gets.
		cn.env["REQUEST_METHOD"] = "GET"
	}
	refuse := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cgi.WriteError(w, r, &cgi.Error{Status: cgi.StatusRequestHeaderFieldsTooLarge, Op: "params",
			Msg: fmt.Sprintf("more than %d bytes of FastCGI parameters (header fields and server variables)", maxParams)})
	})
	return cn.respond(id, keep, refuse)
}

// respond runs the request id with the environment cn.env, its body read
// from the stdin records that follow, and writes the answer.
func (cn *conn) respond(id uint16, keep bool, h cgi.Handler) bool {
	in := &stdin{cn: cn, id: id}
	out := &stdout{cn: cn, id: id}
	cn.out = cn.out[:0]
	// A bad environment (no REQUEST_METHOD) is answered by ServeEnv and
	// returned; the 500 is its answer, logged by WriteError.
	cgi.ServeEnv(h, cn.l, cn.env, nil, in, out)
	// The body is read under the connection's read deadline, on this
	// goroutine (stdin is a cgi.ReadDeadliner). Were it read by
	// cgi.ServeEnv's deadline pump instead, that Read could still be
	// running after a 408: the answer goes out, and then the connection,
	// which cannot be read in step any more, is closed, which ends that
	// Read.
	inStep := in.mu.TryLock()
	cn.lent = !inStep
	ended, aborted := true, false
	if inStep {
		in.closed = true
		ended, aborted = in.ended, errors.Is(in.err, ErrAborted)
		// A read that failed (past the body's deadline, mid-record)
		// leaves the stream out of step too.
		inStep = in.err == nil || aborted
		in.mu.Unlock()
	}
	if out.err != nil {
		return false
	}
	if aborted && !out.wrote {
		// § 5.4: the web server wants no answer, only the end, at once.
		cn.out = cn.out[:0]
	} else {
		cn.out = appendRecord(cn.out, typeStdout, id, nil)
	}
	cn.out = appendEnd(cn.out, id, statusRequestComplete)
	if _, err := cn.c.Write(cn.out); err != nil || !inStep {
		return false
	}
	if cap(cn.out) > holdOut {
		cn.out = nil // only a streamed answer grows it past that: not kept
	}
	if !ended && !cn.drain(id) {
		return false
	}
	return keep
}

// drain reads the rest of request id's stdin stream, within the body's
// read timeout, so that the next request's records are read in step.
func (cn *conn) drain(id uint16) bool {
	timeout := cn.l.ReadTimeout
	if timeout <= 0 {
		timeout = cgi.DefaultReadTimeout
	}
	cn.c.SetReadDeadline(time.Now().Add(timeout))
	defer cn.c.SetReadDeadline(time.Time{})
	for {
		h, err := cn.readHeader()
		if err != nil {
			return false
		}
		if h.id != id {
			if cn.other(h) != nil {
				return false
			}
			continue
		}
		if cn.skip(h.length+h.padding) != nil {
			return false
		}
		switch {
		case h.typ == typeStdin && h.length == 0, h.typ == typeAbortRequest:
			return true
		case h.typ != typeStdin:
			return false
		}
	}
}

// stdin reads request id's body from its stdin records. Its lock keeps
// the deadline pump of cgi.ServeEnv, which may read it on a goroutine of
// its own, and the connection's goroutine, once the answer is out, from
// reading the connection at once.
type stdin struct {
	cn   *conn
	id   uint16
	left int // content left in the current stdin record
	pad  int // its padding

	mu     sync.Mutex
	ended  bool // the empty stdin record was read
	closed bool // the request is answered: reads fail
	err    error
}

// SetReadDeadline bounds the body's reads by the connection's deadline:
// cgi.ServeEnv then needs no goroutine to time them.
func (s *stdin) SetReadDeadline(t time.Time) error { return s.cn.c.SetReadDeadline(t) }

func (s *stdin) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return 0, io.ErrClosedPipe
	case s.err != nil:
		return 0, s.err
	case s.ended:
		return 0, io.EOF
	}
	cn := s.cn
	for s.left == 0 {
		if s.pad > 0 {
			if s.err = cn.skip(s.pad); s.err != nil {
				return 0, s.err
			}
			s.pad = 0
		}
		h, err := cn.readHeader()
		if err != nil {
			s.err = err
			return 0, err
		}
		switch {
		case h.id != s.id:
			if s.err = cn.other(h); s.err != nil {
				return 0, s.err
			}
		case h.typ == typeStdin && h.length == 0:
			s.ended = true
			if s.err = cn.skip(h.padding); s.err != nil {
				return 0, s.err
			}
			return 0, io.EOF
		case h.typ == typeStdin:
			s.left, s.pad = h.length, h.padding
		case h.typ == typeAbortRequest:
			s.ended = true // no more of this request will come
			s.err = &cgi.Error{Status: cgi.StatusBadRequest, Op: "body", Msg: "aborted by the web server", Err: ErrAborted}
			return 0, s.err
		default:
			s.err = ErrProtocol
			return 0, s.err
		}
	}
	n, err := cn.br.Read(p[:min(len(p), s.left)])
	s.left -= n
	if err != nil {
		s.err = err
	}
	return n, err
}

// stdout gathers the answer as stdout records in the connection's
// buffer, and writes the full ones out only when the answer outgrows
// holdOut: a small answer goes out whole with its end, in one write.
type stdout struct {
	cn    *conn
	id    uint16
	err   error
	wrote bool // records are out: the answer has begun
}

// holdOut is how much of an answer is held before records are written:
// cgi.StreamHold, so that a page the gateway holds whole is written whole.
const holdOut = cgi.StreamHold

func (w *stdout) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n := len(p)
	cn := w.cn
	for len(p) > 0 {
		k := min(len(p), maxContent)
		cn.out = appendRecord(cn.out, typeStdout, w.id, p[:k])
		p = p[k:]
		if len(cn.out) >= holdOut {
			w.wrote = true
			if _, w.err = cn.c.Write(cn.out); w.err != nil {
				return 0, w.err
			}
			cn.out = cn.out[:0]
		}
	}
	return n, nil
}

// appendRecord appends a record of type typ for request id holding
// content (at most maxContent bytes), without padding.
func appendRecord(b []byte, typ byte, id uint16, content []byte) []byte {
	b = append(b, 1, typ, byte(id>>8), byte(id), byte(len(content)>>8), byte(len(content)), 0, 0)
	return append(b, content...)
}

// appendEnd appends request id's FCGI_END_REQUEST record, application
// status 0.
func appendEnd(b []byte, id uint16, protocolStatus byte) []byte {
	return appendRecord(b, typeEndRequest, id, []byte{0, 0, 0, 0, protocolStatus, 0, 0, 0})
}

// parseParams adds the name-value pairs of a PARAMS stream (§ 3.4) to
// env: each length one byte, or four with the high bit set. Every name and
// value is a piece of one string made of b, one allocation in all.
func parseParams(b []byte, env map[string]string) error {
	s := string(b)
	size := func() (int, bool) {
		if len(s) == 0 {
			return 0, false
		}
		if s[0]>>7 == 0 {
			n := int(s[0])
			s = s[1:]
			return n, true
		}
		if len(s) < 4 {
			return 0, false
		}
		n := int(binary.BigEndian.Uint32([]byte(s[:4])) &^ (1 << 31))
		s = s[4:]
		return n, true
	}
	for len(s) > 0 {
		kn, ok1 := size()
		vn, ok2 := size()
		if !ok1 || !ok2 || kn > len(s) || vn > len(s)-kn {
			return ErrProtocol
		}
		env[s[:kn]] = s[kn : kn+vn]
		s = s[kn+vn:]
	}
	return nil
}
