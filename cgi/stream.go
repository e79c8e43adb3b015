package cgi

import (
	"io"
	"sync"
	"unicode/utf8"
)

// StreamHold is how much of a streamed body RespondStream holds before it
// sends the status and headers: a page this small is sent whole or not at
// all, as Respond sends it.
const StreamHold = 64 << 10

// RespondStream is Respond for a body that render writes as it makes it,
// so that a large form's page (a 10 MB body can make a 3 MB page) is never
// held in memory whole, nor copied to be made valid UTF-8. It sends what
// Respond sends for the concatenation of render's writes: the same
// headers, and each run of invalid bytes replaced by one U+FFFD, even a run
// or a character split across two writes.
//
// The first StreamHold bytes are held: if render fails before writing
// more, nothing has been sent, RespondStream returns render's error and
// the caller may still answer with an error status (WriteError). Past
// that, the status and headers are out and a failure of render only cuts
// the body short; its error is returned all the same. A failed Write of w
// itself is returned to render as the error of its Write, but not by
// RespondStream: it is w's to report (the CGI writer's Serve returns it).
func RespondStream(w ResponseWriter, status int, f Format, render func(io.Writer) error) error {
	s := &streamWriter{w: w, status: status, f: f}
	err := render(s)
	if err != nil && !s.sent {
		return err // nothing sent: the caller answers instead
	}
	s.finish()
	if s.err != nil {
		return nil // w failed: w reports it
	}
	return err
}

// streamWriter repairs UTF-8 across writes and holds the first StreamHold
// bytes back.
type streamWriter struct {
	w      ResponseWriter
	status int
	f      Format
	sent   bool   // the status and headers are written
	hold   []byte // repaired bytes not yet sent
	tail   []byte // the start of a character the last write ended in
	inBad  bool   // the last byte seen was part of an invalid run
	err    error  // w's
}

func (s *streamWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n := len(p)
	if len(s.tail) > 0 {
		// Rare (a write cut a character in two): go on from the cut.
		p = append(s.tail, p...)
		s.tail = nil
	}
	s.repair(p)
	if s.err != nil {
		return 0, s.err
	}
	return n, nil
}

// repair passes p on made valid as bytes.ToValidUTF8 makes it, except a
// character that p ends in the middle of, kept as the tail: the next write
// may complete it.
func (s *streamWriter) repair(p []byte) {
	if utf8.Valid(p) {
		if len(p) > 0 {
			s.inBad = false
		}
		s.emit(p)
		return
	}
	start := 0
	for i := 0; i < len(p); {
		if p[i] < utf8.RuneSelf {
			i++
			s.inBad = false
			continue
		}
		if !utf8.FullRune(p[i:]) {
			s.emit(p[start:i])
			s.tail = append([]byte(nil), p[i:]...)
			return
		}
		if _, size := utf8.DecodeRune(p[i:]); size > 1 {
			s.inBad = false
			i += size
			continue
		}
		s.emit(p[start:i])
		if !s.inBad {
			s.emit(replacement)
		}
		s.inBad = true
		i++
		start = i
	}
	s.emit(p[start:])
}

var replacement = []byte("\uFFFD")

// emit holds b or sends it.
func (s *streamWriter) emit(b []byte) {
	if len(b) == 0 || s.err != nil {
		return
	}
	if !s.sent {
		if len(s.hold)+len(b) <= StreamHold {
			if s.hold == nil {
				s.hold = (*holdBuffers.Get().(*[]byte))[:0]
			}
			s.hold = append(s.hold, b...)
			return
		}
		s.sendHeld()
	}
	s.write(b)
}

// holdBuffers keeps the held pages' buffers from one request to the next
// in a long-lived (FastCGI) server, where each grew by doubling.
var holdBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// sendHeld sends the header and what is held, and gives the buffer back.
func (s *streamWriter) sendHeld() {
	s.send(s.hold)
	if s.hold != nil && cap(s.hold) <= 2*StreamHold {
		b := s.hold[:0]
		holdBuffers.Put(&b)
	}
	s.hold = nil
}

func (s *streamWriter) send(held []byte) {
	s.sent = true
	h := s.w.Header()
	h.Set("Content-Type", s.f.ContentType())
	h.Set("X-Content-Type-Options", "nosniff")
	h.Del("Content-Length")
	s.w.WriteHeader(s.status)
	s.write(held)
}

func (s *streamWriter) write(b []byte) {
	if len(b) == 0 || s.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = err
	}
}

// finish sends what is held and ends a cut character as invalid bytes
// (the Encoding Standard's UTF-8 decoder, § 8.1.1, ends a truncated
// sequence with one U+FFFD, as bytes.ToValidUTF8 does at the end of its
// input).
func (s *streamWriter) finish() {
	if len(s.tail) > 0 {
		if !s.inBad {
			s.emit(replacement)
		}
		s.tail = nil
	}
	if !s.sent {
		s.sendHeld()
	}
}
