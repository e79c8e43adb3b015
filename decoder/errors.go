package decoder

import "fmt"

// EscapeError reports a malformed percent escape ("%", "%4", "%zz") when the
// decoder is strict.
type EscapeError struct {
	Origin string // which input: "query", "body"
	Offset int    // byte offset of the '%' in that input
	Escape string // the '%' and up to two bytes after it
}

func (e *EscapeError) Error() string {
	return fmt.Sprintf("decoder: malformed percent escape %q at %s offset %d", e.Escape, e.Origin, e.Offset)
}

// LimitError reports input beyond one of the Limits. The gateway answers it
// with 413 Content Too Large.
type LimitError struct {
	Limit string // "fields", "keywords", "name bytes", "value bytes", "total bytes"
	Max   int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("decoder: more than %d %s", e.Max, e.Limit)
}

// CharsetError reports a charset a request named that cannot be used, or
// (when strict) bytes invalid in the chosen charset.
type CharsetError struct {
	Source Source // where the label came from
	Label  string
	Err    error // *charset.UnknownError or *charset.InvalidError
}

func (e *CharsetError) Error() string {
	return fmt.Sprintf("decoder: charset %q from %s: %v", e.Label, e.Source, e.Err)
}

func (e *CharsetError) Unwrap() error { return e.Err }

// BindError lists every field that could not be bound to a struct.
type BindError struct {
	Fields map[string]string // field name -> reason
}

func (e *BindError) Error() string {
	return fmt.Sprintf("decoder: %d fields could not be bound: %v", len(e.Fields), e.Fields)
}
