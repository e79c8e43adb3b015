// Package record is the file of form submissions (CGIGATE_RECORD): one
// JSON line per submission, appended by concurrent CGI processes under a
// lock (Append), read back by `cgigate export` and `cgigate deliver`
// (Reader), with the uploaded files a form keeps stored beside it by their
// SHA-256 (KeepFile).
//
// # The line (a contract: keys are only ever added)
//
//	{"id": "0190b6f2-6c1e-7c3a-9d4e-0123456789ab", // UUIDv7 (RFC 9562 § 5.7)
//	 "time": "2025-01-02T03:04:05.123456789Z",    // RFC 3339, UTC, nanoseconds
//	 "form": "contact",                           // the declared form's name, or ""
//	 "remote_addr": "198.51.100.9",               // REMOTE_ADDR, never X-Forwarded-For
//	 "user_agent": "...", "referer": "...",       // as the request sent them, or ""
//	 "charset": "euc-kr",                         // WHATWG name of the charset used
//	 "charset_source": "sniffed",                 // hint, _charset_, content-type, config, sniffed, default
//	 "confidence": 0.41,                          // of a sniffed charset, 0 to 1; 1 when a source named it
//	 "fields": [{"name": "q", "value": "곰빤", "source": "query" | "body"}],
//	 "files": [{"name": "f", "filename": "a.pdf", "content_type": "application/pdf",
//	            "size": 123, "sha256": "<hex>", "path": "/srv/files/<sha256>"}],
//	 "warnings": ["..."],                         // absent when there are none; at most 21
//	 "raw": {"query": "q=%B0%F5%BA%FE",
//	         "content_type": "application/x-www-form-urlencoded",
//	         "body": "a=%25B0%25F5",
//	         "parts": [{"name": "a", "base64": "sLU="}]}}
//
// id is unique and orders by time (NewID): a UUIDv7's first 48 bits are
// the Unix time in milliseconds, the next 12 the fraction of that
// millisecond, and the rest random bits, so two processes writing in the
// same quarter of a microsecond get distinct ids in no particular order. Lines are in the order they were
// appended, which is the order the lock was granted.
//
// fields and files are exactly what the JSON rendering of the answer held
// (decoded text, made valid UTF-8). path, in a file, is present only when
// the file was kept (KeepFile): the file named by its SHA-256 in the
// folder the form or CGIGATE_FILES_DIR names.
//
// raw is the input as it arrived, so that a wrong charset guess can be
// undone (`cgigate export -charset`):
//
//   - query is QUERY_STRING as received, with any byte below 0x20 or from
//     0x80 up percent-encoded (JSON text cannot hold bytes that are not
//     UTF-8). Browsers never send such bytes bare, and percent-decoding
//     reads a bare byte and its escape alike, so the fields decoded from
//     query are the request's.
//   - content_type is CONTENT_TYPE as received: it says whether body is
//     urlencoded or text/plain.
//   - body is an application/x-www-form-urlencoded or text/plain body with
//     '%', every byte below 0x20 and every byte from 0x80 up
//     percent-encoded (EscapeBody): percent-decoding it gives the body
//     back byte for byte. It is at most three times the body.
//   - parts are a multipart body's text parts, in order: name, escaped as
//     body is, and the value's bytes in standard base64 (RFC 4648 § 4).
//     File parts are not in raw; their content is kept only by KeepFile.
package record

import (
	"time"
)

// Record is one line of the record file; see the package documentation for
// the meaning of each key. Its json tags give the keys in their order.
type Record struct {
	ID            string   `json:"id"`
	Time          string   `json:"time"`
	Form          string   `json:"form"`
	RemoteAddr    string   `json:"remote_addr"`
	UserAgent     string   `json:"user_agent"`
	Referer       string   `json:"referer"`
	Charset       string   `json:"charset"`
	CharsetSource string   `json:"charset_source"`
	Confidence    float64  `json:"confidence"`
	Fields        []Field  `json:"fields"`
	Files         []File   `json:"files"`
	Warnings      []string `json:"warnings,omitempty"`
	Raw           Raw      `json:"raw"`
}

// Field is one decoded name=value pair, as rendered.
type Field struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"` // "query" or "body"
}

// File is one uploaded file, as rendered, and where it was kept.
type File struct {
	Name        string `json:"name"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
	Path        string `json:"path,omitempty"` // set when the file was kept (KeepFile)
}

// Raw is the request's input as it arrived; see the package documentation.
type Raw struct {
	Query       string `json:"query"`
	ContentType string `json:"content_type"`
	Body        string `json:"body"`
	Parts       []Part `json:"parts"`
}

// Part is one text part of a multipart body: its name escaped as a body is
// (EscapeBody), its bytes in base64.
type Part struct {
	Name   string `json:"name"`
	Base64 string `json:"base64"`
}

// TimeFormat is the layout of Record.Time.
const TimeFormat = time.RFC3339Nano

// Stamp is t as Record.Time holds it: UTC, nanoseconds.
func Stamp(t time.Time) string { return t.UTC().Format(TimeFormat) }

// ParseTime reads a Record.Time.
func ParseTime(s string) (time.Time, error) { return time.Parse(TimeFormat, s) }
