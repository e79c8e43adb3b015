package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cgigate/cgigate/cgi"
)

// result is the JSON rendering, a contract documented in the README:
// every key is always present, lists empty rather than null.
type result struct {
	Kind          string         `json:"kind"`
	Method        string         `json:"method"`
	Charset       string         `json:"charset"`
	CharsetSource string         `json:"charset_source"`
	Keywords      []string       `json:"keywords"`
	Fields        []fieldJSON    `json:"fields"`
	Files         []fileJSON     `json:"files"`
	Results       []searchResult `json:"results"`
	Total         int            `json:"total"` // of a search: all matches
	Page          int            `json:"page"`  // from 1; 0 when no search
	Pages         int            `json:"pages"`
	Warnings      []string       `json:"warnings"`
	// Form and Redirect are only in the answers of a declared form: its
	// name, and where its 303 sends the browser.
	Form     string `json:"form,omitempty"`
	Redirect string `json:"redirect,omitempty"`

	searched bool       // an index was searched: say so when nothing matched
	nav      *searchNav // a search's box and pager, for the HTML page
	site     string     // CGIGATE_SITE_NAME, for the HTML pages
}

type fieldJSON struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

type fileJSON struct {
	Name        string `json:"name"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
}

// valid makes a string valid UTF-8 before it is rendered: html/template
// and encoding/json would pass some invalid bytes on (corpus case 68).
func valid(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

func newResult(f *cgi.Form) result {
	res := result{
		Kind: f.Kind.String(), Method: f.Method, Charset: f.Charset, CharsetSource: string(f.CharsetSource),
		Keywords: []string{}, Fields: []fieldJSON{}, Files: []fileJSON{}, Results: []searchResult{}, Warnings: []string{},
	}
	for _, k := range f.Keywords {
		res.Keywords = append(res.Keywords, valid(k))
	}
	for _, fd := range f.Fields {
		res.Fields = append(res.Fields, fieldJSON{valid(fd.Name), valid(fd.Value), fd.Origin})
	}
	for _, fl := range f.Files {
		res.Files = append(res.Files, fileJSON{valid(fl.Name), valid(fl.Filename), valid(fl.ContentType), fl.Size, fl.SHA256})
	}
	for _, w := range f.Warnings {
		res.Warnings = append(res.Warnings, valid(w))
	}
	return res
}

// The renderings write to the response as they go (cgi.RespondStream): a
// large form's page is never held whole.

// writeJSON writes res as json.Encoder with two-space indentation writes
// it (TestJSONIsWrittenAsEncodingJSONWritesIt holds it to the encoder),
// one list element at a time: encoding/json holds the whole encoding of a
// value, twice when indenting, so a form of 10 MB would be held three
// times over before a byte went out. It is written out key by key, not
// through encoding/json's reflection, which builds an encoder for each
// type on its first use in a process (looking up each type's pointer type
// by name): that was most of a JSON answer's CPU in a CGI process.
func writeJSON(w io.Writer, res result) error {
	j := &jsonWriter{w: w}
	j.b = append(j.b, '{')
	j.key("kind").str(res.Kind)
	j.key("method").str(res.Method)
	j.key("charset").str(res.Charset)
	j.key("charset_source").str(res.CharsetSource)
	j.key("keywords")
	list(j, res.Keywords, "    ", func(s string) { j.str(s) })
	j.key("fields")
	list(j, res.Fields, "    ", func(f fieldJSON) {
		j.open("      ").key("name").str(f.Name).key("value").str(f.Value).key("source").str(f.Source).shut("    ")
	})
	j.key("files")
	list(j, res.Files, "    ", func(f fileJSON) {
		j.open("      ").key("name").str(f.Name).key("filename").str(f.Filename).key("content_type").str(f.ContentType)
		j.key("size").b = strconv.AppendInt(j.b, f.Size, 10)
		j.key("sha256").str(f.SHA256).shut("    ")
	})
	j.key("results")
	list(j, res.Results, "    ", func(r searchResult) {
		j.open("      ").key("title").str(r.Title).key("url").str(r.URL).key("snippet").str(r.Snippet)
		j.key("score").float(r.Score)
		j.key("highlights")
		list(j, r.Highlights, "        ", func(h [2]int) {
			j.b = append(j.b, "[\n          "...)
			j.b = strconv.AppendInt(j.b, int64(h[0]), 10)
			j.b = append(j.b, ",\n          "...)
			j.b = strconv.AppendInt(j.b, int64(h[1]), 10)
			j.b = append(j.b, "\n        ]"...)
		})
		j.shut("    ")
	})
	j.key("total").b = strconv.AppendInt(j.b, int64(res.Total), 10)
	j.key("page").b = strconv.AppendInt(j.b, int64(res.Page), 10)
	j.key("pages").b = strconv.AppendInt(j.b, int64(res.Pages), 10)
	j.key("warnings")
	list(j, res.Warnings, "    ", func(s string) { j.str(s) })
	if res.Form != "" {
		j.key("form").str(res.Form)
	}
	if res.Redirect != "" {
		j.key("redirect").str(res.Redirect)
	}
	j.b = append(j.b, "\n}\n"...)
	j.flush()
	return j.err
}

// jsonWriter appends an object's keys and values as json.Encoder with
// two-space indentation writes them, and passes them on a list element
// at a time.
type jsonWriter struct {
	w      io.Writer
	b      []byte
	indent string // of the keys of the object being written
	more   bool   // a key of that object is written: the next follows a comma
	err    error  // the first of w's, or a value encoding/json refuses
}

// key appends a key of the object at j.indent ("  " for the top one).
func (j *jsonWriter) key(name string) *jsonWriter {
	if j.more {
		j.b = append(j.b, ',')
	}
	if j.indent == "" {
		j.indent = "  "
	}
	j.b = append(j.b, '\n')
	j.b = append(j.b, j.indent...)
	j.b = appendJSONString(j.b, name)
	j.b = append(j.b, ": "...)
	j.more = true
	return j
}

func (j *jsonWriter) str(s string) *jsonWriter {
	j.b = appendJSONString(j.b, s)
	return j
}

// open starts an object, a list's element, whose keys are at indent.
func (j *jsonWriter) open(indent string) *jsonWriter {
	j.b = append(j.b, '{')
	j.indent, j.more = indent, false
	return j
}

// shut ends the object open started, its brace at indent; the keys that
// follow are the top object's.
func (j *jsonWriter) shut(indent string) {
	j.b = append(j.b, '\n')
	j.b = append(j.b, indent...)
	j.b = append(j.b, '}')
	j.indent, j.more = "  ", true
}

// float appends f as encoding/json writes a float64 (ES6 number to
// string: exponents from 1e21 and below 1e-6, e-7 not e-07).
func (j *jsonWriter) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if _, err := json.Marshal(f); j.err == nil {
			j.err = err // encoding/json's own UnsupportedValueError
		}
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	j.b = strconv.AppendFloat(j.b, f, format, -1, 64)
	if n := len(j.b); format == 'e' && n >= 4 && j.b[n-4] == 'e' && j.b[n-3] == '-' && j.b[n-2] == '0' {
		j.b[n-2] = j.b[n-1]
		j.b = j.b[:n-1]
	}
}

// flush writes what is appended, unless a write has failed.
func (j *jsonWriter) flush() {
	if j.err == nil && len(j.b) > 0 {
		_, j.err = j.w.Write(j.b)
	}
	j.b = j.b[:0]
}

// list appends xs, a list whose elements are at indent, as encoding/json
// writes a slice: null for nil, [] for none. A list of the top object's
// is written an element at a time.
func list[T any](j *jsonWriter, xs []T, indent string, elem func(T)) {
	switch {
	case xs == nil:
		j.b = append(j.b, "null"...)
		return
	case len(xs) == 0:
		j.b = append(j.b, "[]"...)
		return
	}
	top := indent == "    "
	j.b = append(j.b, '[')
	for i, x := range xs {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.b = append(j.b, '\n')
		j.b = append(j.b, indent...)
		elem(x)
		if top {
			j.flush()
		}
	}
	j.b = append(j.b, '\n')
	j.b = append(j.b, indent[:len(indent)-2]...)
	j.b = append(j.b, ']')
}

// appendJSONString appends s quoted as encoding/json quotes a string with
// HTML escaping on (json.Marshal's default): <, > and & as \u003c, \u003e
// and \u0026, control bytes escaped, U+2028 and U+2029 escaped, each
// invalid byte as \ufffd.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// writeText writes one line per item, every value Go-quoted (%q), so no
// value can forge a line, and control bytes are visible. A failed write is
// the response's to report.
func writeText(b io.Writer, res result) error {
	fmt.Fprintf(b, "kind: %s\nmethod: %s\ncharset: %s (%s)\n", res.Kind, res.Method, res.Charset, res.CharsetSource)
	for _, k := range res.Keywords {
		fmt.Fprintf(b, "keyword: %q\n", k)
	}
	for _, f := range res.Fields {
		fmt.Fprintf(b, "field (%s): %q = %q\n", f.Source, f.Name, f.Value)
	}
	for _, f := range res.Files {
		fmt.Fprintf(b, "file: %q filename %q type %q size %d sha256 %s\n", f.Name, f.Filename, f.ContentType, f.Size, f.SHA256)
	}
	for _, r := range res.Results {
		fmt.Fprintf(b, "result %.3f: %q <%s>\n  %q\n", r.Score, r.Title, r.URL, r.Snippet)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(b, "warning: %q\n", w)
	}
	if res.Form != "" {
		fmt.Fprintf(b, "form: %s\n", res.Form)
	}
	if res.Redirect != "" {
		fmt.Fprintf(b, "redirect: %s\n", res.Redirect)
	}
	return nil
}

// promptScript turns the search box into a real ISINDEX query (RFC 3875
// § 4.4, HTML 2.0 § 7.5): the words, each percent-encoded (so no '=' and
// no '+' survive unencoded), joined by '+'. Without script the form sends
// "isindex=words", which the gateway takes as the keywords.
const promptScript = `document.getElementById("isindex").addEventListener("submit", function (e) {
  e.preventDefault();
  var words = document.getElementById("q").value.split(/\s+/).filter(Boolean).map(encodeURIComponent);
  if (words.length) { location.search = "?" + words.join("+"); }
});`
