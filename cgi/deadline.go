package cgi

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// deadlineReader reads r until a deadline, then fails with a 408 *Error.
// A blocking read of a pipe cannot be interrupted, so one goroutine pumps
// r and Read waits for it or for the timer, whichever comes first; after
// the deadline the pump is abandoned. A CGI child exits right after its
// answer, and under FastCGI the server closes the request's stream, so the
// pump does not outlive the request for long.
type deadlineReader struct {
	r       io.Reader
	timeout time.Duration
	timer   *time.Timer
	chunks  chan chunk
	done    chan struct{}
	cur     []byte
	err     error
	// The pump reads into at most two buffers of chunkSize, handed back
	// and forth: one Read copies out while the pump fills the other, and a
	// large body costs no new buffer per chunk (a 10 MB body made 300 of
	// them).
	free    chan []byte
	held    []byte // the buffer cur points into, given back once drained
	bufSize int    // of the pump's buffers: readBufSize of the body's length
}

const chunkSize, minChunk = 32 << 10, 512

var errClosed = errors.New("cgi: body read after Close")

type chunk struct {
	b   []byte
	err error
}

// newDeadlineReader reads r under timeout; size is how many bytes r holds
// when known (CONTENT_LENGTH), or -1.
func newDeadlineReader(r io.Reader, timeout time.Duration, size int64) *deadlineReader {
	return &deadlineReader{r: r, timeout: timeout, bufSize: readBufSize(size)}
}

// readBufSize is the size of a buffer to read a body of length bytes (-1:
// unknown) through: chunkSize, or room for the whole body and the read
// that sees its end. A CGI process faults in every fresh page it touches,
// and most form posts are a few dozen bytes. At least minChunk, so that a
// body longer than it said costs reads of a sensible size, never one a
// byte.
func readBufSize(length int64) int {
	if length >= 0 && length < chunkSize {
		return max(int(length)+1, minChunk)
	}
	return chunkSize
}

func (d *deadlineReader) start() {
	d.timer = time.NewTimer(d.timeout)
	d.chunks = make(chan chunk)
	d.done = make(chan struct{})
	d.free = make(chan []byte, 2)
	go func() {
		made := 0
		for {
			var b []byte
			select {
			case b = <-d.free:
			default:
				if made < 2 {
					b, made = make([]byte, d.bufSize), made+1
					break
				}
				select {
				case b = <-d.free:
				case <-d.done:
					return
				}
			}
			n, err := d.r.Read(b)
			select {
			case d.chunks <- chunk{b[:n], err}:
			case <-d.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	if d.timer == nil {
		d.start()
	}
	for len(d.cur) == 0 || d.err == errClosed {
		if d.err != nil {
			return 0, d.err
		}
		if d.held != nil {
			d.free <- d.held // never blocks: the pump has made at most two
			d.held = nil
		}
		select {
		case c := <-d.chunks:
			d.cur, d.err, d.held = c.b, c.err, c.b[:cap(c.b)]
		case <-d.timer.C:
			d.err = timeoutError(d.timeout)
			close(d.done)
			return 0, d.err
		}
	}
	n := copy(p, d.cur)
	d.cur = d.cur[n:]
	return n, nil
}

// Close releases the pump and the timer once the body is no longer read;
// a Read after it fails.
func (d *deadlineReader) Close() error {
	if d.err == nil {
		d.err = errClosed
	}
	if d.timer == nil {
		return nil
	}
	d.timer.Stop()
	select {
	case <-d.done:
	default:
		close(d.done)
	}
	return nil
}

// timeoutError is the 408 of a body not received within timeout.
func timeoutError(timeout time.Duration) *Error {
	return &Error{Status: StatusRequestTimeout, Op: "body", Msg: fmt.Sprintf("not received within %s", timeout)}
}

// ReadDeadliner is a body's reader that bounds its own reads by a
// deadline, as a network connection does (package fcgi's stdin). ServeEnv
// sets one deadline for the whole body on it rather than pumping it from a
// goroutine with a timer and two 32 KiB buffers (deadlineReader).
type ReadDeadliner interface {
	SetReadDeadline(t time.Time) error
}

// timedReader reads a body whose reader has its deadline set, and turns
// a read past the deadline into deadlineReader's 408.
type timedReader struct {
	r       io.Reader
	timeout time.Duration
}

func (t *timedReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = timeoutError(t.timeout)
	}
	return n, err
}

// bodyUnderDeadline puts body, read from stdin, under timeout for the
// whole request: a stdin that is a ReadDeadliner (a connection) is given
// the deadline and read directly; any other (a pipe's *os.File refuses a
// deadline) is pumped by a deadlineReader. release ends what it set up,
// once the rest of the body has been drained.
func bodyUnderDeadline(body, stdin io.Reader, timeout time.Duration, size int64) (r io.Reader, release func()) {
	if d, ok := stdin.(ReadDeadliner); ok && d.SetReadDeadline(time.Now().Add(timeout)) == nil {
		return &timedReader{r: body, timeout: timeout}, func() { d.SetReadDeadline(time.Time{}) }
	}
	dr := newDeadlineReader(body, timeout, size)
	return dr, func() { dr.Close() }
}

// underDeadline reports whether ServeEnv has put body under its deadline.
func underDeadline(body io.Reader) bool {
	switch body.(type) {
	case *deadlineReader, *timedReader:
		return true
	}
	return false
}

// countingReader bounds a body at max bytes (413) and turns an end before
// want bytes into a 400: a body shorter than its CONTENT_LENGTH is a
// client that went away, and the partial form is discarded.
type countingReader struct {
	r         io.Reader
	n         int64
	want, max int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n, &Error{Status: StatusRequestEntityTooLarge, Op: "body", Msg: fmt.Sprintf("more than %d bytes", c.max)}
	}
	if err == io.EOF && c.want > 0 && c.n < c.want {
		return n, &Error{Status: StatusBadRequest, Op: "body",
			Msg: fmt.Sprintf("ended after %d of the %d bytes of CONTENT_LENGTH", c.n, c.want), Err: io.ErrUnexpectedEOF}
	}
	return n, err
}
