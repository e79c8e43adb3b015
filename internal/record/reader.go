package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLine is the longest line a Reader takes by default: a record
// of a 10 MiB body (CGIGATE_MAX_BODY's default) is at most about nine
// times that, its fields escaped as JSON and its raw body beside them.
const DefaultMaxLine = 256 << 20

// Reader reads the records of a record file line by line, from an offset,
// for a reader that follows the file as it grows (`cgigate deliver`) or
// reads it once (`cgigate export`).
//
// A line that is not a record (not JSON, or longer than MaxLine) is
// reported as a *LineError and skipped: the next call reads the line after
// it. A last line without its newline is not read: a writer may be in the
// middle of it, or was killed there (the next Append moves it aside). Next
// then says io.EOF, and Offset stays at the line's start; once the line is
// whole, a later Next returns it.
type Reader struct {
	// MaxLine bounds a line's length in bytes; 0 means DefaultMaxLine.
	MaxLine int

	br      *bufio.Reader
	off     int64  // offset of the next line
	pending []byte // the start of a line whose newline has not come yet
	skip    bool   // pending is a line over MaxLine, being skipped
	skipped int64  // bytes of that line so far
	line    []byte
}

// NewReader reads records from r, which is positioned at offset in the
// record file (an *os.File that was opened and seeked there, say): offset
// only numbers the lines for Offset and errors.
func NewReader(r io.Reader, offset int64) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), off: offset}
}

// LineError is a line of the record file that is not a record.
type LineError struct {
	Offset int64 // where the line starts in the file
	Len    int64 // its length, without the newline
	Err    error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("record file: the line at offset %d (%d bytes) is not a record: %v", e.Offset, e.Len, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// ErrLineTooLong is the cause of a LineError for a line over MaxLine.
var ErrLineTooLong = errors.New("longer than the reader's limit")

var errNotObject = errors.New("not a JSON object")

// Next reads the next whole line and decodes it. It returns io.EOF when no
// whole line is left (see Reader), a *LineError for a line that is not a
// record (the reader has moved past it), and any other error of the
// underlying reader.
func (r *Reader) Next() (Record, error) {
	max := r.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			start := r.off
			if r.skip {
				n := r.skipped + int64(len(chunk)) - 1
				r.off += n + 1
				r.skip, r.skipped = false, 0
				return Record{}, &LineError{Offset: start, Len: n, Err: ErrLineTooLong}
			}
			if len(r.pending) == 0 {
				r.line = chunk[:len(chunk)-1] // valid until the next read
			} else {
				r.pending = append(r.pending, chunk[:len(chunk)-1]...)
				r.line, r.pending = r.pending, r.pending[:0:0]
			}
			r.off += int64(len(r.line)) + 1
			if len(r.line) > max {
				return Record{}, &LineError{Offset: start, Len: int64(len(r.line)), Err: ErrLineTooLong}
			}
			var rec Record
			if t := bytes.TrimLeft(r.line, " \t\r"); len(t) == 0 || t[0] != '{' {
				return Record{}, &LineError{Offset: start, Len: int64(len(r.line)), Err: errNotObject}
			}
			if err := json.Unmarshal(r.line, &rec); err != nil {
				return Record{}, &LineError{Offset: start, Len: int64(len(r.line)), Err: err}
			}
			return rec, nil
		}
		// A chunk without its newline: the buffer filled, or the input
		// ended for now.
		switch {
		case r.skip:
			r.skipped += int64(len(chunk))
		case len(r.pending)+len(chunk) > max:
			r.skip, r.skipped = true, int64(len(r.pending)+len(chunk))
			r.pending = nil
		default:
			r.pending = append(r.pending, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return Record{}, err
		}
	}
}

// Line is the bytes of the line Next last returned, without its newline;
// they stay valid until the next call of Next.
func (r *Reader) Line() []byte { return r.line }

// Offset is where the next line starts: just after the last line Next
// returned or skipped. A reader that starts again there (NewReader at
// Offset) misses no line and reads none twice.
func (r *Reader) Offset() int64 { return r.off }
