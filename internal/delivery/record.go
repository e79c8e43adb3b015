package delivery

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cgigate/cgigate/internal/record"
)

// Record is one line of the record file as internal/record reads it, with
// what delivery adds: the time parsed, and the line's bytes exactly
// (without the newline), which webhooks send and sign as they are, so that
// a receiver checks the signature over what the gateway wrote.
type Record struct {
	record.Record
	Received time.Time // Record.Time, parsed
	Line     []byte
}

// Field is one decoded name=value pair of a record.
type Field = record.Field

// Value is the first value of the field called name, and whether there is one.
func (r *Record) Value(name string) (string, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// LineError is a line of the record file that is not a record: it is
// skipped and reported, and never blocks the lines after it.
type LineError struct {
	Path   string // the file
	Offset int64  // where the line starts in it
	Len    int64  // the line's length in bytes, its newline left out
	Msg    string // what is wrong with it
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s: line at offset %d (%d bytes) skipped: %s", e.Path, e.Offset, e.Len, e.Msg)
}

// lineError is the report of a line record.Reader refused.
func lineError(path string, e *record.LineError, maxLine int) *LineError {
	msg := "not a JSON record: " + e.Err.Error()
	switch {
	case errors.Is(e.Err, record.ErrLineTooLong):
		msg = fmt.Sprintf("longer than %d bytes", maxLine)
	case e.Len == 0:
		msg = "empty line"
	}
	return &LineError{Path: path, Offset: e.Offset, Len: e.Len, Msg: msg}
}

// deliverable checks a record that record.Reader read from line (without
// its newline) for what every target needs beyond the format: an id that
// is a UUID, which makes delivery idempotent, and a time. It returns what
// is wrong, or "".
func deliverable(rec record.Record, line []byte) (Record, string) {
	switch {
	case rec.ID == "":
		return Record{}, "no id"
	case !record.IsID(rec.ID):
		return Record{}, fmt.Sprintf("id %q is not a UUID", rec.ID)
	case rec.Time == "":
		return Record{}, "no time"
	}
	t, err := record.ParseTime(rec.Time)
	if err != nil {
		return Record{}, fmt.Sprintf("time %q is not RFC 3339", rec.Time)
	}
	return Record{Record: rec, Received: t, Line: line}, ""
}

var jsonMarshal = json.Marshal
