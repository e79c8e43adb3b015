package idn

import (
	"fmt"
	"strconv"
)

// Error records a failed host operation and the input that caused it, in the
// manner of net/url's *url.Error, so that callers can log the input and still
// reach the cause with errors.As.
type Error struct {
	Op   string // the entry point that failed, e.g. "ParseHost"
	Host string // the input as given to Op
	Err  error  // the cause: *ForbiddenCodePointError, *LegacyError, an idna error, ...
}

func (e *Error) Error() string {
	return "idn: " + e.Op + " " + strconv.Quote(e.Host) + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// ForbiddenCodePointError reports a code point that the WHATWG URL Standard
// forbids in a domain (https://url.spec.whatwg.org/#forbidden-domain-code-point),
// found after percent-decoding and domain to ASCII. Host is the host being
// checked at that point, Offset the byte offset of Char within it.
type ForbiddenCodePointError struct {
	Host   string
	Char   rune
	Offset int
}

func (e *ForbiddenCodePointError) Error() string {
	return fmt.Sprintf("forbidden code point %U %q at offset %d in host %q", e.Char, e.Char, e.Offset, e.Host)
}

// LegacyError reports a label that has the form of one of the 2000-era IDN
// encodings (UTF-5 "triple-hyphened" or "double-hyphened" UTF-8) but is not a
// valid, canonical encoding. Offset is the byte offset within Label at which
// decoding failed, or -1 when the label as a whole is at fault (for example a
// non-canonical encoding).
type LegacyError struct {
	Label  string
	Form   string // "UTF-5" or "double-hyphened UTF-8"
	Offset int
	Reason string
}

func (e *LegacyError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("label %q is not valid %s: %s", e.Label, e.Form, e.Reason)
	}
	return fmt.Sprintf("label %q is not valid %s at offset %d: %s", e.Label, e.Form, e.Offset, e.Reason)
}
