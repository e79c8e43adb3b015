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
// FCGI_MPXS_CONNS is 0, and records of another request id are ignored.
package fcgi

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
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

// ErrAborted is what the body reads after the web server aborted the
// request (FCGI_ABORT_REQUEST).
var ErrAborted = errors.New("fcgi: request aborted by the web server")

// Serve accepts connections on ln and answers their requests with h under
// l, each connection in a goroutine of its own, until ln fails; it returns
// that error.
func Serve(ln net.Listener, h cgi.Handler, l cgi.Limits) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go ServeConn(c, h, l)
	}
}

// ServeConn answers the requests of one connection, then closes it.
func ServeConn(c net.Conn, h cgi.Handler, l cgi.Limits) {
	cn := &conn{c: c, br: bufio.NewReaderSize(c, 16<<10), h: h, l: l}
	defer c.Close()
	for cn.serveOne() {
	}
}

type conn struct {
	c  net.Conn
	br *bufio.Reader
	h  cgi.Handler
	l  cgi.Limits

	hdr    [headerLen]byte
	params []byte // the current request's PARAMS stream, reused
	out    []byte // the answer's records not yet written, reused
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
	began := false
	for {
		h, err := cn.readHeader()
		if err != nil {
			return false
		}
		switch {
		case h.typ == typeGetValues && h.id == 0:
			if cn.skip(h.length+h.padding) != nil {
				return false
			}
			// The one variable worth saying: no multiplexing.
			cn.out = appendRecord(cn.out[:0], typeGetValuesResult, 0, []byte("\x0f\x01FCGI_MPXS_CONNS0"))
			if _, err := cn.c.Write(cn.out); err != nil {
				return false
			}
			continue
		case h.id == 0:
			if cn.skip(h.length+h.padding) != nil {
				return false
			}
			cn.out = appendRecord(cn.out[:0], typeUnknownType, 0, []byte{h.typ, 0, 0, 0, 0, 0, 0, 0})
			if _, err := cn.c.Write(cn.out); err != nil {
				return false
			}
			continue
		case h.typ == typeBeginRequest && !began:
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
			continue
		case !began || h.id != id:
			// Another request's records: not multiplexed, ignored (§ 3.3).
			if cn.skip(h.length+h.padding) != nil {
				return false
			}
			continue
		case h.typ == typeAbortRequest:
			if cn.skip(h.length+h.padding) != nil {
				return false
			}
			cn.out = appendEnd(cn.out[:0], id, statusRequestComplete)
			_, err := cn.c.Write(cn.out)
			return err == nil && keep
		case h.typ == typeParams && h.length > 0:
			if len(cn.params)+h.length > maxParams {
				return false
			}
			n := len(cn.params)
			cn.params = append(cn.params, make([]byte, h.length)...)
			if _, err := io.ReadFull(cn.br, cn.params[n:]); err != nil || cn.skip(h.padding) != nil {
				return false
			}
			continue
		case h.typ == typeParams:
			if cn.skip(h.padding) != nil {
				return false
			}
			env, err := parseParams(cn.params)
			if err != nil {
				return false
			}
			return cn.respond(id, keep, env)
		default:
			// STDIN before the end of PARAMS, DATA, or a type we do not
			// know: the stream is out of step.
			return false
		}
	}
}

// respond runs the request id with the environment env, its body read
// from the stdin records that follow, and writes the answer.
func (cn *conn) respond(id uint16, keep bool, env map[string]string) bool {
	in := &stdin{cn: cn, id: id}
	out := &stdout{cn: cn, id: id}
	cn.out = cn.out[:0]
	// A bad environment (no REQUEST_METHOD) is answered by ServeEnv and
	// returned; the 500 is its answer, logged by WriteError.
	cgi.ServeEnv(cn.h, cn.l, env, nil, in, out)
	// The body's reader may still be in a Read, on the deadline pump's
	// goroutine, after a 408: then this connection cannot be read in step
	// any more and is closed, which ends that Read.
	if !in.mu.TryLock() {
		return false
	}
	in.closed = true
	ended := in.ended
	in.mu.Unlock()
	if out.err != nil {
		return false
	}
	cn.out = appendRecord(cn.out, typeStdout, id, nil)
	cn.out = appendEnd(cn.out, id, statusRequestComplete)
	if _, err := cn.c.Write(cn.out); err != nil {
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
		if err != nil || cn.skip(h.length+h.padding) != nil {
			return false
		}
		switch {
		case h.id != id:
		case h.typ == typeStdin && h.length == 0:
			return true
		case h.typ == typeAbortRequest:
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
			if s.err = cn.skip(h.length + h.padding); s.err != nil {
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
			s.err = ErrAborted
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
	cn  *conn
	id  uint16
	err error
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

// parseParams reads the name-value pairs of a PARAMS stream (§ 3.4): each
// length one byte, or four with the high bit set.
func parseParams(b []byte) (map[string]string, error) {
	env := make(map[string]string, 32)
	size := func() (int, bool) {
		if len(b) == 0 {
			return 0, false
		}
		if b[0]>>7 == 0 {
			n := int(b[0])
			b = b[1:]
			return n, true
		}
		if len(b) < 4 {
			return 0, false
		}
		n := int(binary.BigEndian.Uint32(b) &^ (1 << 31))
		b = b[4:]
		return n, true
	}
	for len(b) > 0 {
		kn, ok1 := size()
		vn, ok2 := size()
		if !ok1 || !ok2 || kn > len(b) || vn > len(b)-kn {
			return nil, ErrProtocol
		}
		env[string(b[:kn])] = string(b[kn : kn+vn])
		b = b[kn+vn:]
	}
	return env, nil
}
