// Package decoder turns the raw bytes of a CGI request's query string and
// form body into text: it tells an ISINDEX query from a FORM query, splits
// the structure on raw bytes, percent-decodes each piece exactly once,
// chooses a charset from the hints the request carries (or sniffs one), and
// decodes every name, value and keyword with it.
//
// The work happens in two steps so that one charset is chosen from all the
// evidence a request has, the query string and the body alike:
//
//	raw, err := d.SplitQuery(os.Getenv("QUERY_STRING"), "query")
//	err = d.SplitURLEncoded(raw, body, "body")
//	res, err := d.Decode(raw, decoder.Evidence{ContentTypeCharset: "shift_jis"})
//
// Structure is split before any charset is applied and decoded text is never
// parsed again, so no multibyte decoder can forge or swallow a '&', '=' or
// '+' (the lesson of every Shift_JIS and GBK escaping bypass).
//
// The package reads no process state: the cgi package hands it the bytes.
package decoder
