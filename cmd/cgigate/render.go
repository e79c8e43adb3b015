package main

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
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
// it, but one list element at a time: encoding/json holds the whole
// encoding of a value, twice when indenting, so a form of 10 MB would
// otherwise be held three times over before a byte went out. The keys come
// from result's json tags, in their order.
func writeJSON(w io.Writer, res result) error {
	v := reflect.ValueOf(res)
	t := v.Type()
	var keys []int
	for i := range t.NumField() {
		_, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if t.Field(i).IsExported() && !(opts == "omitempty" && v.Field(i).IsZero()) {
			keys = append(keys, i)
		}
	}
	io.WriteString(w, "{\n")
	for n, i := range keys {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		key, _ := json.Marshal(name)
		fmt.Fprintf(w, "  %s: ", key)
		if err := writeJSONValue(w, v.Field(i), "  "); err != nil {
			return err
		}
		if n < len(keys)-1 {
			io.WriteString(w, ",")
		}
		io.WriteString(w, "\n")
	}
	_, err := io.WriteString(w, "}\n")
	return err
}

// writeJSONValue writes v as json.MarshalIndent would at indent, a slice
// element by element. An element of a flat struct (flatFields) is written
// field by field, each value marshalled alone: MarshalIndent marshals the
// whole element, then indents it in a second pass over every byte, which
// was a third of the CPU of a 27 MB form's JSON answer.
func writeJSONValue(w io.Writer, v reflect.Value, indent string) error {
	if v.Kind() != reflect.Slice || v.Len() == 0 {
		b, err := json.MarshalIndent(v.Interface(), indent, "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	io.WriteString(w, "[\n")
	flat := flatFields(v.Type().Elem())
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // escapes HTML, as MarshalIndent does
	for i := range v.Len() {
		buf.Reset()
		buf.WriteString(indent + "  ")
		if flat != nil {
			if err := appendFlat(&buf, enc, v.Index(i), flat, indent+"  "); err != nil {
				return err
			}
		} else {
			b, err := json.MarshalIndent(v.Index(i).Interface(), indent+"  ", "  ")
			if err != nil {
				return err
			}
			buf.Write(b)
		}
		if i < v.Len()-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		if _, err := w.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, indent+"]")
	return err
}

// flatField is a field of a flat struct: its place and its quoted key.
type flatField struct {
	index int
	key   string
}

// flatFields lists the fields of t when t is a struct that encoding/json
// writes as an object of scalars: every exported field a string, number
// or boolean named by a plain json tag, none with a marshaller of its own.
// It is nil for any other type, which MarshalIndent writes.
func flatFields(t reflect.Type) []flatField {
	if t.Kind() != reflect.Struct || implementsMarshaler(t) {
		return nil
	}
	var out []flatField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		name := f.Tag.Get("json")
		if f.Anonymous || !plainKey(name) || implementsMarshaler(f.Type) {
			return nil
		}
		switch f.Type.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		default:
			return nil
		}
		key, _ := json.Marshal(name)
		out = append(out, flatField{i, string(key)})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// plainKey reports whether a json tag is a bare name of ASCII letters,
// digits and underscores: encoding/json takes it as the key as it is.
func plainKey(tag string) bool {
	for _, c := range []byte(tag) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return tag != ""
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

func implementsMarshaler(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonMarshaler) || p.Implements(textMarshaler)
}

// appendFlat appends v, a struct of the fields flat, as MarshalIndent
// writes it at prefix.
func appendFlat(buf *bytes.Buffer, enc *json.Encoder, v reflect.Value, flat []flatField, prefix string) error {
	buf.WriteString("{\n")
	for k, f := range flat {
		buf.WriteString(prefix + "  ")
		buf.WriteString(f.key)
		buf.WriteString(": ")
		if err := enc.Encode(v.Field(f.index).Interface()); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode ends a value with a newline
		if k < len(flat)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString(prefix + "}")
	return nil
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
