package cgi

import "net/textproto"

// Header holds a request's or an answer's header fields by canonical name
// (textproto.CanonicalMIMEHeaderKey), as http.Header does: the two convert
// into each other without a copy, which is how package cgihttp hands a
// net/http header to a Handler.
type Header map[string][]string

// Get returns the first value of key, or "".
func (h Header) Get(key string) string { return textproto.MIMEHeader(h).Get(key) }

// Values returns every value of key.
func (h Header) Values(key string) []string { return textproto.MIMEHeader(h).Values(key) }

// Set replaces the values of key by value. It does not check value: the
// gateway's answers set headers through SetHeader, and whatever a handler
// writes here directly is checked again as the header goes out.
func (h Header) Set(key, value string) { textproto.MIMEHeader(h).Set(key, value) }

// Add appends value to the values of key.
func (h Header) Add(key, value string) { textproto.MIMEHeader(h).Add(key, value) }

// Del removes key.
func (h Header) Del(key string) { textproto.MIMEHeader(h).Del(key) }
