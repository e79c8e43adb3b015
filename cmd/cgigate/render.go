package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

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
// times over before a byte went out. The structure is written out key by
// key and only the strings and numbers go through encoding/json: its
// reflection builds an encoder for each struct type on its first use in a
// process (looking up each type's pointer type by name), which was most of
// a JSON answer's CPU in a CGI process.
func writeJSON(w io.Writer, res result) error {
	j := &jsonWriter{w: w}
	j.b = append(j.b, '{')
	j.key("kind").scalar(res.Kind)
	j.key("method").scalar(res.Method)
	j.key("charset").scalar(res.Charset)
	j.key("charset_source").scalar(res.CharsetSource)
	j.key("keywords")
	list(j, res.Keywords, "    ", func(s string) { j.scalar(s) })
	j.key("fields")
	list(j, res.Fields, "    ", func(f fieldJSON) {
		j.open("      ").key("name").scalar(f.Name).key("value").scalar(f.Value).key("source").scalar(f.Source).shut("    ")
	})
	j.key("files")
	list(j, res.Files, "    ", func(f fileJSON) {
		j.open("      ").key("name").scalar(f.Name).key("filename").scalar(f.Filename).key("content_type").scalar(f.ContentType)
		j.key("size").scalar(f.Size)
		j.key("sha256").scalar(f.SHA256).shut("    ")
	})
	j.key("results")
	list(j, res.Results, "    ", func(r searchResult) {
		j.open("      ").key("title").scalar(r.Title).key("url").scalar(r.URL).key("snippet").scalar(r.Snippet)
		j.key("score").scalar(r.Score)
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
	j.key("total").scalar(res.Total)
	j.key("page").scalar(res.Page)
	j.key("pages").scalar(res.Pages)
	j.key("warnings")
	list(j, res.Warnings, "    ", func(s string) { j.scalar(s) })
	if res.Form != "" {
		j.key("form").scalar(res.Form)
	}
	if res.Redirect != "" {
		j.key("redirect").scalar(res.Redirect)
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

	enc     *json.Encoder // encodes each scalar into scratch
	scratch bytes.Buffer
}

// key appends a key of the object at j.indent ("  " for the top one).
// Names are writeJSON's own constants, which need no escaping.
func (j *jsonWriter) key(name string) *jsonWriter {
	if j.more {
		j.b = append(j.b, ',')
	}
	if j.indent == "" {
		j.indent = "  "
	}
	j.b = append(j.b, '\n')
	j.b = append(j.b, j.indent...)
	j.b = append(j.b, '"')
	j.b = append(j.b, name...)
	j.b = append(j.b, `": `...)
	j.more = true
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

// scalar appends v, a string or a number, as encoding/json encodes it
// (a string with HTML escaping on, as json.Marshal quotes one). A value it
// refuses (an infinite score) is j.err.
func (j *jsonWriter) scalar(v any) *jsonWriter {
	if j.enc == nil {
		j.enc = json.NewEncoder(&j.scratch)
	}
	j.scratch.Reset()
	if err := j.enc.Encode(v); err != nil {
		if j.err == nil {
			j.err = err
		}
		return j
	}
	j.b = append(j.b, bytes.TrimSuffix(j.scratch.Bytes(), []byte("\n"))...)
	return j
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
