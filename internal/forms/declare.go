// Package forms reads a site's declaration of its forms (the file
// CGIGATE_FORMS names) and judges a submission against it: every field's
// kind and limits, unknown fields, the honeypot, and where the submission
// came from. It knows nothing of CGI: the gateway hands it decoded fields
// and files and renders what it says.
//
// A CGI process starts for every request, so nothing here runs unless a
// request is addressed to a declared form: the file is read and parsed
// only then, and the package allocates nothing at init.
package forms

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cgigate/cgigate/decoder/charset"
	"go.yaml.in/yaml/v3"
)

// Kind is what a declared field holds.
type Kind string

// The kinds, as the declaration spells them.
const (
	Text     Kind = "text" // the default
	Email    Kind = "email"
	Number   Kind = "number"
	Date     Kind = "date"
	Choice   Kind = "choice"
	Checkbox Kind = "checkbox"
	File     Kind = "file"
)

var kinds = []Kind{Text, Email, Number, Date, Choice, Checkbox, File}

// Field is one declared field.
type Field struct {
	Name     string
	Label    string // shown beside the input; the name when not declared
	Kind     Kind
	Required bool
	// Max counts characters for text and email, bytes for a file, and
	// bounds a number's value; Min bounds a number's value. Nil: no bound
	// beyond the decoder's own limits.
	Min, Max *float64
	// Multiline makes a text field a textarea, and lets its value hold
	// line breaks.
	Multiline bool
	Choices   []string // choice: the values allowed; checkbox: the same, when given
	Types     []string // file: the media types allowed ("image/*" allowed too)
	Message   string   // said of the field when it fails, instead of the built-in message
}

// Form is one declared form.
type Form struct {
	Name     string // the key under forms:, and the last part of its address
	Title    string
	Charset  string // the WHATWG name of the charset of the page that holds the form
	Lang     string // the language of the built-in pages' own words: "en" (the default) or "ja"
	Methods  []string
	Fields   []Field
	Reject   bool   // unknown: reject; false is ignore
	Honeypot string // a field no person fills; "" for none
	Origins  []string
	Redirect string
	Record   bool
	// Files is the folder where a recorded submission's uploaded files
	// are kept, by their SHA-256, in place of CGIGATE_FILES_DIR; "" for
	// that setting. An absolute path: a relative one would depend on the
	// CGI process's working folder, which the server chooses.
	Files string
}

// Field returns the declared field called name, or nil.
func (f *Form) Field(name string) *Field {
	for i := range f.Fields {
		if f.Fields[i].Name == name {
			return &f.Fields[i]
		}
	}
	return nil
}

// Accepts reports whether the form takes submissions by method (GET or
// POST; HEAD is a GET whose answer has no body).
func (f *Form) Accepts(method string) bool {
	if method == "HEAD" {
		method = "GET"
	}
	return slices.Contains(f.Methods, method)
}

// Allow is the Allow header of the form's address (RFC 9110 § 10.2.1):
// GET and HEAD for the form's page, and the methods it is submitted by.
func (f *Form) Allow() string {
	allow := "GET, HEAD"
	if f.Accepts("POST") {
		allow += ", POST"
	}
	return allow
}

// HasFiles reports whether a field of the form is a file, which makes the
// form's page send multipart/form-data.
func (f *Form) HasFiles() bool {
	for _, fd := range f.Fields {
		if fd.Kind == File {
			return true
		}
	}
	return false
}

// Set is a site's declared forms.
type Set struct {
	File  string
	Forms map[string]*Form
}

// Form returns the form declared as name, or nil.
func (s *Set) Form(name string) *Form { return s.Forms[name] }

// Recorded reports whether some form has record: true.
func (s *Set) Recorded() bool {
	for _, f := range s.Forms {
		if f.Record {
			return true
		}
	}
	return false
}

// DeclarationError is one fault of a forms file, with the line it is on
// and the key it concerns ("forms.contact.fields.age.kind"), as
// yaml-checking tools report them.
type DeclarationError struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *DeclarationError) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
	}
	if e.Key != "" {
		s += ": " + e.Key
	}
	return s + ": " + e.Msg
}

// maxFileBytes bounds a forms file: it is read whole by the request that
// needs it, so a mistaken path (a log, a disk image) must not be.
const maxFileBytes = 1 << 20

// Load reads and checks the forms file at path. Its error joins every
// *DeclarationError found (or is the *fs.PathError of reading it).
func Load(path string) (*Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileBytes {
		return nil, &DeclarationError{File: path, Msg: fmt.Sprintf("larger than %d bytes", maxFileBytes)}
	}
	return Parse(path, data)
}

// Parse checks a forms file's contents; file names it in errors.
func Parse(file string, data []byte) (*Set, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(file, err)
	}
	p := &parser{file: file}
	set := &Set{File: file, Forms: map[string]*Form{}}
	if len(doc.Content) == 0 {
		p.failf(&doc, "", "empty: want a mapping with the key forms")
		return nil, p.err()
	}
	root := doc.Content[0]
	p.mapping(root, "", func(key string, k, v *yaml.Node) {
		switch key {
		case "forms":
			p.mapping(v, "forms", func(name string, k, v *yaml.Node) {
				if !validName(name) {
					p.failf(k, "forms."+name, "a form's name is its address (/cgi-bin/cgigate/NAME): use letters, digits, - and _ only")
					return
				}
				if f := p.form("forms."+name, name, v); f != nil {
					set.Forms[name] = f
				}
			})
		default:
			p.unknown(k, key, "forms")
		}
	})
	if err := p.err(); err != nil {
		return nil, err
	}
	if len(set.Forms) == 0 {
		return nil, &DeclarationError{File: file, Line: root.Line, Key: "forms", Msg: "declares no form"}
	}
	return set, nil
}

// yamlError turns yaml's error, which says "yaml: line N: ...", into a
// DeclarationError with the line.
func yamlError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ": "); ok {
			if _, serr := fmt.Sscanf(n, "%d", &line); serr == nil {
				msg = after
			}
		}
	}
	return &DeclarationError{File: file, Line: line, Msg: msg}
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// parser collects the faults of one file, each with its line and key.
type parser struct {
	file string
	errs []error
	// keys counts the keys read; aliases and merges read a mapping again
	// wherever it is named, so a file of 1 MiB could stand for billions.
	keys int
}

// maxKeys bounds the keys one file's aliases and merges bring in, far
// above any site's declaration.
const maxKeys = 100000

// maxErrors bounds what one file reports: past it, the first ones say
// enough.
const maxErrors = 50

func (p *parser) failf(n *yaml.Node, key, format string, args ...any) {
	if len(p.errs) == maxErrors {
		return
	}
	p.errs = append(p.errs, &DeclarationError{File: p.file, Line: n.Line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) err() error { return errors.Join(p.errs...) }

func (p *parser) unknown(k *yaml.Node, key string, want ...string) {
	p.failf(k, key, "unknown key (want %s)", strings.Join(want, ", "))
}

// mapping calls each for every key of n, a mapping, in order; a key given
// twice is a fault, as YAML 1.2 § 3.2.1.1 has it. A merge key ("<<: *a",
// YAML's merge type) brings in the keys of the mapping it names that n
// does not give itself, so that two forms can share a declaration.
func (p *parser) mapping(n *yaml.Node, at string, each func(key string, k, v *yaml.Node)) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		p.failf(n, at, "want a mapping of keys to values")
		return
	}
	seen := map[string]bool{}
	var merged []*yaml.Node
	if !p.read(n, at) {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" {
			merged = append(merged, v)
			continue
		}
		key := join(at, k.Value)
		if seen[k.Value] {
			p.failf(k, key, "given twice")
			continue
		}
		seen[k.Value] = true
		each(k.Value, k, v)
	}
	for _, m := range merged {
		if m.Kind == yaml.AliasNode {
			m = m.Alias
		}
		if m.Kind != yaml.MappingNode {
			p.failf(m, at, "<< merges a mapping (<<: *name)")
			continue
		}
		if !p.read(m, at) {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if k := m.Content[i]; !seen[k.Value] && k.Tag != "!!merge" {
				seen[k.Value] = true
				each(k.Value, k, m.Content[i+1])
			}
		}
	}
}

// read counts the keys of n, a mapping about to be read, and reports
// false, with a fault the first time, once the file has brought in more
// than maxKeys.
func (p *parser) read(n *yaml.Node, at string) bool {
	if p.keys > maxKeys {
		return false
	}
	p.keys += len(n.Content) / 2
	if p.keys > maxKeys {
		p.failf(n, at, "aliases and merges bring in more than %d keys", maxKeys)
		return false
	}
	return true
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func (p *parser) scalar(n *yaml.Node, key string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		p.failf(n, key, "want a single value")
		return "", false
	}
	return n.Value, true
}

func (p *parser) str(n *yaml.Node, key string, dst *string) {
	if s, ok := p.scalar(n, key); ok {
		*dst = s
	}
}

func (p *parser) boolean(n *yaml.Node, key string, dst *bool) {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		p.failf(n, key, "want true or false")
		return
	}
	*dst = b
}

func (p *parser) number(n *yaml.Node, key string) *float64 {
	var f float64
	if n.Kind != yaml.ScalarNode || n.Tag == "!!str" || n.Decode(&f) != nil || f != f || f > 1e300 || f < -1e300 {
		p.failf(n, key, "want a number")
		return nil
	}
	return &f
}

func (p *parser) list(n *yaml.Node, key string) []string {
	if n.Kind != yaml.SequenceNode {
		p.failf(n, key, "want a list, such as [a, b]")
		return nil
	}
	var out []string
	for _, c := range n.Content {
		if s, ok := p.scalar(c, key); ok {
			if s == "" {
				p.failf(c, key, "an empty entry")
				continue
			}
			if slices.Contains(out, s) {
				p.failf(c, key, "%q is listed twice", s)
				continue
			}
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) form(at, name string, n *yaml.Node) *Form {
	f := &Form{Name: name, Methods: []string{"POST"}}
	var sawFields bool
	honeypotKey := n
	before := len(p.errs)
	p.mapping(n, at, func(key string, k, v *yaml.Node) {
		at := join(at, key)
		switch key {
		case "title":
			p.str(v, at, &f.Title)
		case "charset":
			var label string
			p.str(v, at, &label)
			if label == "" {
				return
			}
			cs, err := charset.Lookup(label)
			if err != nil {
				p.failf(v, at, "%v", err)
				return
			}
			f.Charset = cs.Name()
		case "lang":
			p.str(v, at, &f.Lang)
			if f.Lang != "en" && f.Lang != "ja" {
				p.failf(v, at, "%q: the built-in pages speak en and ja (a site's own form.html may speak any)", f.Lang)
			}
		case "methods":
			f.Methods = nil
			for _, m := range p.list(v, at) {
				switch m {
				case "GET", "POST":
					f.Methods = append(f.Methods, m)
				default:
					p.failf(v, at, "method %q: want GET or POST (HEAD comes with GET)", m)
				}
			}
			if len(f.Methods) == 0 {
				p.failf(v, at, "a form is submitted by GET or POST: list one")
			}
		case "fields":
			sawFields = true
			p.mapping(v, at, func(fname string, k, v *yaml.Node) {
				if fname == "" || fname == "_charset_" {
					p.failf(k, join(at, fname), "not a name a field may have")
					return
				}
				if fd, ok := p.field(join(at, fname), fname, v); ok {
					f.Fields = append(f.Fields, fd)
				}
			})
		case "unknown":
			var s string
			p.str(v, at, &s)
			switch s {
			case "reject":
				f.Reject = true
			case "ignore":
			default:
				p.failf(v, at, "%q: want reject or ignore", s)
			}
		case "honeypot":
			p.str(v, at, &f.Honeypot)
			honeypotKey = k
		case "origins":
			for _, o := range p.list(v, at) {
				norm, err := normalOrigin(o)
				if err != nil {
					p.failf(v, at, "%q: %v", o, err)
					continue
				}
				f.Origins = append(f.Origins, norm)
			}
		case "redirect":
			p.str(v, at, &f.Redirect)
			if err := checkRedirect(f.Redirect); err != nil {
				p.failf(v, at, "%q: %v", f.Redirect, err)
			}
		case "record":
			p.boolean(v, at, &f.Record)
		case "files":
			p.str(v, at, &f.Files)
			if !filepath.IsAbs(f.Files) {
				p.failf(v, at, "%q: want an absolute path", f.Files)
			}
		default:
			p.unknown(k, at, "title", "charset", "lang", "methods", "fields", "unknown", "honeypot", "origins", "redirect", "record", "files")
		}
	})
	if !sawFields && len(p.errs) == before {
		p.failf(n, join(at, "fields"), "missing: a form declares its fields")
	}
	if f.Honeypot != "" {
		if !validFieldName(f.Honeypot) || f.Honeypot == "_charset_" {
			p.failf(honeypotKey, join(at, "honeypot"), "%q is not a name a field may have", f.Honeypot)
		} else if f.Field(f.Honeypot) != nil {
			p.failf(honeypotKey, join(at, "honeypot"), "%q is also a declared field: people fill those", f.Honeypot)
		}
	}
	if f.Title == "" {
		f.Title = name
	}
	if f.Charset == "" {
		f.Charset = "utf-8"
	}
	if f.Lang == "" {
		f.Lang = "en"
	}
	if len(p.errs) > before {
		return nil
	}
	return f
}

// validFieldName accepts any name a browser can send that the pages can
// show: no control characters.
func validFieldName(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7F {
			return false
		}
	}
	return true
}

func (p *parser) field(at, name string, n *yaml.Node) (Field, bool) {
	fd := Field{Name: name, Kind: Text}
	if !validFieldName(name) {
		p.failf(n, at, "not a name a field may have")
		return fd, false
	}
	before := len(p.errs)
	var keyLine = map[string]*yaml.Node{}
	p.mapping(n, at, func(key string, k, v *yaml.Node) {
		at := join(at, key)
		keyLine[key] = k
		switch key {
		case "kind":
			var s string
			p.str(v, at, &s)
			if !slices.Contains(kinds, Kind(s)) {
				p.failf(v, at, "unknown kind %q (want text, email, number, date, choice, checkbox or file)", s)
				return
			}
			fd.Kind = Kind(s)
		case "label":
			p.str(v, at, &fd.Label)
		case "required":
			p.boolean(v, at, &fd.Required)
		case "min":
			fd.Min = p.number(v, at)
		case "max":
			fd.Max = p.number(v, at)
		case "multiline":
			p.boolean(v, at, &fd.Multiline)
		case "choices":
			fd.Choices = p.list(v, at)
		case "types":
			fd.Types = p.list(v, at)
			for _, t := range fd.Types {
				if !validType(t) {
					p.failf(v, at, "%q is not a media type (type/subtype, or type/*)", t)
				}
			}
		case "message":
			p.str(v, at, &fd.Message)
		default:
			p.unknown(k, at, "kind", "label", "required", "min", "max", "multiline", "choices", "types", "message")
		}
	})
	if len(p.errs) > before {
		return fd, false
	}
	// What each kind takes: a key that means nothing for the kind is a
	// mistake the site would otherwise never learn of.
	only := func(key string, ok bool, why string) {
		if k := keyLine[key]; k != nil && !ok {
			p.failf(k, join(at, key), "%s", why)
		}
	}
	only("min", fd.Kind == Number, "min bounds a number's value: only for kind number")
	only("max", fd.Kind != Date && fd.Kind != Choice && fd.Kind != Checkbox, "max is characters for text and email, bytes for a file, the value for a number: not for kind "+string(fd.Kind))
	only("multiline", fd.Kind == Text, "multiline is for kind text")
	only("choices", fd.Kind == Choice || fd.Kind == Checkbox, "choices are for kinds choice and checkbox")
	only("types", fd.Kind == File, "types are for kind file")
	if fd.Kind == Choice && len(fd.Choices) == 0 {
		p.failf(n, join(at, "choices"), "missing: a choice lists its choices")
	}
	if fd.Max != nil && fd.Kind != Number && (*fd.Max < 1 || *fd.Max != float64(int64(*fd.Max))) {
		p.failf(keyLine["max"], join(at, "max"), "want a whole number of at least 1")
	}
	if fd.Min != nil && fd.Max != nil && *fd.Min > *fd.Max {
		p.failf(keyLine["min"], join(at, "min"), "%v is above max %v", *fd.Min, *fd.Max)
	}
	if fd.Label == "" {
		fd.Label = name
	}
	return fd, len(p.errs) == before
}

func validType(t string) bool {
	typ, sub, ok := strings.Cut(t, "/")
	return ok && typ != "" && sub != "" && typ != "*" && !strings.ContainsAny(t, " ;,\t")
}

// checkRedirect accepts a path on the same site ("/thanks.html") or an
// absolute http(s) URL: a Location the declaration alone decides, one
// header line with no control bytes. A scheme-relative "//host" is
// refused as ambiguous; so is a relative path, which a browser would
// resolve against the form's address.
func checkRedirect(s string) error {
	switch {
	case s == "":
		return errors.New("empty: leave the key out for a thank-you page")
	case strings.ContainsFunc(s, func(r rune) bool { return r <= 0x20 || r == 0x7F || r == '\\' }):
		return errors.New("holds a space, a control character or a backslash")
	case strings.HasPrefix(s, "//"):
		return errors.New("a scheme-relative URL: write https://host/path or /path")
	case strings.HasPrefix(s, "/"):
		return nil
	case strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://"):
		_, rest, _ := strings.Cut(s, "://")
		if host, _, _ := strings.Cut(rest, "/"); host == "" {
			return errors.New("no host")
		}
		return nil
	}
	return errors.New("want a path beginning with / or an http(s) URL")
}
