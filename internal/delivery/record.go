package delivery

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"time"
)

// Record is one line of the record file, as far as delivery needs it. Line
// keeps the line's bytes exactly (without the newline): webhooks send them
// and sign them as they are, so a receiver checks the signature over what
// the gateway wrote.
//
// The record's schema belongs to the gateway; this reader takes only the
// keys delivery uses and keeps the rest inside Line.
type Record struct {
	ID            string          `json:"id"`
	Time          time.Time       `json:"time"`
	Form          string          `json:"form"`
	RemoteAddr    string          `json:"remote_addr"`
	UserAgent     string          `json:"user_agent"`
	Referer       string          `json:"referer"`
	Charset       string          `json:"charset"`
	CharsetSource string          `json:"charset_source"`
	Confidence    float64         `json:"confidence"`
	Fields        []Field         `json:"fields"`
	Files         json.RawMessage `json:"files"`
	Warnings      []string        `json:"warnings"`
	Raw           json.RawMessage `json:"raw"`

	Line []byte `json:"-"`
}

// Field is one decoded name=value pair of a record.
type Field struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// Value is the first value of the field called name, and whether there is one.
func (r *Record) Value(name string) (string, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// uuidText is the text form of a UUID (RFC 9562 § 4), any version: the
// gateway writes UUIDv7, and PostgreSQL's uuid type takes any of them.
var uuidText = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

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

// parseRecord reads one line (without its newline) as a record. What it
// requires is what every target needs: a JSON object, an id that is a
// UUID, which makes delivery idempotent, and a time.
func parseRecord(line []byte) (Record, string) {
	var r Record
	if len(bytes.TrimSpace(line)) == 0 {
		return r, "empty line"
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return r, "not a JSON record: " + err.Error()
	}
	switch {
	case r.ID == "":
		return r, "no id"
	case !uuidText.MatchString(r.ID):
		return r, fmt.Sprintf("id %q is not a UUID", r.ID)
	case r.Time.IsZero():
		return r, "no time"
	}
	r.Line = line
	return r, ""
}

var jsonMarshal = json.Marshal
