package cgi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"os"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
)

// Error is a request the gateway refuses, with the HTTP status it is
// answered with. Op says what was being done ("content-length",
// "multipart", "body"), Input the offending input (quoted in the message,
// never in a header).
type Error struct {
	Status int
	Op     string
	Input  string
	Msg    string
	Err    error
}

func (e *Error) Error() string {
	s := "cgi: " + e.Op
	if e.Input != "" {
		s += fmt.Sprintf(" %q", e.Input)
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(status int, op, input, format string, args ...any) *Error {
	return &Error{Status: status, Op: op, Input: input, Msg: fmt.Sprintf(format, args...)}
}

// ErrServer marks a fault of the server, not of the request: a
// misconfiguration, a full disk. It is answered 500 (or the status of an
// *Error wrapping it) and its reason goes to stderr, Apache's error log.
var ErrServer = errors.New("server fault")

// StatusOf maps an error to the status that answers it (RFC 9110 § 15):
//
//	*Error                       its Status
//	ErrServer                    500, whatever else it wraps
//	*decoder.LimitError          413 Content Too Large
//	*decoder.EscapeError         400 (strict decoding)
//	*decoder.CharsetError        400, naming the label
//	multipart.ErrMessageTooLarge 413
//	context.DeadlineExceeded     408 Request Timeout
//	io.ErrUnexpectedEOF          400 (a truncated body)
//	anything else                500 (a server fault)
//
// Client input never maps to 500: every error the request parsing returns
// is one of the typed ones above.
func StatusOf(err error) int {
	var (
		e  *Error
		le *decoder.LimitError
		ee *decoder.EscapeError
		ce *decoder.CharsetError
		ue *charset.UnknownError
		ie *charset.InvalidError
	)
	switch {
	case err == nil:
		return StatusOK
	case errors.As(err, &e):
		return e.Status
	case errors.Is(err, ErrServer):
		return StatusInternalServerError
	case errors.As(err, &le), errors.Is(err, multipart.ErrMessageTooLarge):
		return StatusRequestEntityTooLarge
	case errors.As(err, &ee), errors.As(err, &ce), errors.As(err, &ue), errors.As(err, &ie):
		return StatusBadRequest
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return StatusRequestTimeout
	case errors.Is(err, io.ErrUnexpectedEOF):
		return StatusBadRequest
	}
	return StatusInternalServerError
}

// Message is the text an error is answered with: for client errors the
// error itself (it names the input, which the renderer escapes); for server
// faults only the status text, the reason going to stderr.
func Message(err error) string {
	if st := StatusOf(err); st >= 500 {
		return StatusText(st)
	}
	var ce *decoder.CharsetError
	if errors.As(err, &ce) {
		return fmt.Sprintf("unknown or unusable charset %q (from %s)", ce.Label, ce.Source)
	}
	return err.Error()
}
