package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/idn"
)

// display writes decoded text for the one-line form of a URL, which people
// read: characters stand for themselves, except those that would change
// the URL's structure in that place (esc), '%' (so that no "%41" in the text
// reads as an escape), controls and the C1 range, which are escaped in
// UTF-8, and the space, written as space says. Quoted parts and JSON hold
// the exact text.
func display(b *strings.Builder, s, esc, space string) {
	for _, r := range s {
		switch {
		case r == ' ':
			b.WriteString(space)
		case r == '%' || r < 0x20 || r == 0x7F || 0x80 <= r && r < 0xA0 || r < utf8.RuneSelf && strings.ContainsRune(esc, r):
			var buf [4]byte
			for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
				fmt.Fprintf(b, "%%%02X", c)
			}
		default:
			b.WriteRune(r)
		}
	}
}

// Characters each place must keep escaped to read back the same.
const (
	escUser     = ":@/?#[]"
	escPassword = "@/?#[]"
	escSegment  = `/?#\`
	escKeyword  = "+=&#"
	escName     = "=&+#"
	escValue    = "&+#"
	escFragment = ""
	escOpaque   = "?#"
)

// url is the decoded URL on one line.
func (r *decoded) url() string {
	var b strings.Builder
	u := r.Raw
	if r.Kind == kindURL {
		b.WriteString(u.Scheme)
		b.WriteByte(':')
	}
	if u.HasAuthority {
		b.WriteString("//")
		if u.HasUserinfo {
			display(&b, r.User, escUser, "%20")
			if strings.Contains(u.Userinfo, ":") {
				b.WriteByte(':')
				display(&b, r.Password, escPassword, "%20")
			}
			b.WriteByte('@')
		}
		b.WriteString(r.hostUnicode())
		if r.HasPort && !r.PortDefault {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(r.Port))
		}
	}
	if r.Address {
		display(&b, r.User, escUser, "%20")
		b.WriteString("@" + r.Host.Unicode)
	} else if r.Opaque {
		display(&b, r.Segments[0], escOpaque, "%20")
	} else if r.Segments != nil {
		for _, s := range r.Segments {
			b.WriteByte('/')
			display(&b, s, escSegment, "%20")
		}
	}
	if q := r.Query; q != nil {
		if r.Kind != kindQuery {
			b.WriteByte('?')
		}
		for i, k := range q.Keywords {
			if i > 0 {
				b.WriteByte('+')
			}
			display(&b, k, escKeyword, "+")
		}
		for i, f := range q.Fields {
			if i > 0 {
				b.WriteByte('&')
			}
			display(&b, f.Name, escName, "+")
			b.WriteByte('=')
			display(&b, f.Value, escValue, "+")
		}
	}
	if u.HasFragment {
		b.WriteByte('#')
		display(&b, r.Fragment, escFragment, "%20")
	}
	return b.String()
}

func (r *decoded) hostUnicode() string {
	if r.HostOK {
		return r.Host.Unicode
	}
	return r.HostDecoded
}

// hostText is the host in Unicode, its IDNA ASCII form, and what was
// done to read it ("percent-decoded", "punycode", ...).
func (r *decoded) hostText() string {
	h := r.Host
	var notes []string
	if h.Kind == idn.Domain {
		notes = append(notes, "IDNA "+h.ASCII)
	} else {
		notes = append(notes, h.Kind.String())
	}
	if h.Steps != 0 {
		notes = append(notes, h.Steps.String())
	}
	return h.Unicode + " (" + strings.Join(notes, ", ") + ")"
}

func (r *decoded) hostASCII() string {
	if r.HostOK {
		return r.Host.ASCII
	}
	return ""
}

// path is the decoded path, escaped as in url.
func (r *decoded) path() string {
	var b strings.Builder
	if r.Opaque {
		display(&b, r.Segments[0], escOpaque, "%20")
		return b.String()
	}
	for _, s := range r.Segments {
		b.WriteByte('/')
		display(&b, s, escSegment, "%20")
	}
	return b.String()
}

// charsetText says which charset and why, for people.
func (c choice) text() string {
	var why string
	switch c.source {
	case decoder.SourceHint:
		why = "hint [" + c.hint + "]"
		if c.family != nil {
			why += fmt.Sprintf(", sniffed among %s, confidence %.2f", strings.Join(c.family, " "), c.confidence)
		}
	case decoder.SourceSniffed:
		why = fmt.Sprintf("sniffed, confidence %.2f", c.confidence)
	case decoder.SourceConfig:
		why = "-charset"
	case decoder.SourceDefault:
		why = "default"
	default:
		why = string(c.source)
	}
	return c.cs.Name() + " (" + why + ")"
}

// writeText prints the decoded URL and then its parts, one a line,
// indented; quoted parts are exact (Go syntax, every control escaped).
func (r *decoded) writeText(w *bufio.Writer) {
	fmt.Fprintln(w, r.url())
	part := func(name, format string, args ...any) {
		fmt.Fprintf(w, "  %-9s "+format+"\n", append([]any{name + ":"}, args...)...)
	}
	u := r.Raw
	if r.Kind == kindURL {
		part("scheme", "%s", u.Scheme)
	}
	if u.HasUserinfo {
		legacy := ""
		if r.UserLegacy {
			legacy = " (legacy IDN)"
		}
		part("user", "%q%s", r.User, legacy)
		if strings.Contains(u.Userinfo, ":") {
			part("password", "%q", r.Password)
		}
	}
	if u.HasAuthority {
		if r.HostOK {
			part("host", "%s", r.hostText())
		} else {
			part("host", "%q", r.HostDecoded)
		}
		if r.HasPort {
			if r.PortDefault {
				part("port", "%d (default for %s)", r.Port, u.Scheme)
			} else {
				part("port", "%d", r.Port)
			}
		}
	}
	if r.Address {
		legacy := ""
		if r.UserLegacy {
			legacy = " (legacy IDN)"
		}
		part("user", "%q%s", r.User, legacy)
		part("host", "%s", r.hostText())
	} else if r.Opaque {
		part("path", "%q", r.Segments[0])
	} else if len(r.Segments) > 0 && !(len(r.Segments) == 1 && r.Segments[0] == "") {
		for _, s := range r.Segments {
			part("segment", "%q", s)
		}
	}
	if q := r.Query; q != nil {
		for _, k := range q.Keywords {
			part("keyword", "%q", k)
		}
		for _, f := range q.Fields {
			part("field", "%q = %q", f.Name, f.Value)
		}
	}
	if u.HasFragment {
		part("fragment", "%q", r.Fragment)
	}
	part("charset", "%s", r.Choice.text())
	for _, x := range r.Warnings {
		part("warning", "%s", x)
	}
}

// urlJSON is one decoded input. The query's keys are the gateway's
// (cmd/cgigate's JSON rendering: kind, charset, charset_source, keywords,
// fields, warnings); every key is always present, lists empty, not null.
type urlJSON struct {
	Line          int         `json:"line"`
	Input         string      `json:"input"`
	URL           string      `json:"url"`
	Scheme        string      `json:"scheme"`
	Username      string      `json:"username"`
	Password      string      `json:"password"`
	Host          string      `json:"host"`
	HostASCII     string      `json:"host_ascii"`
	Port          *int        `json:"port"` // null when there is none
	PortDefault   bool        `json:"port_default"`
	Path          string      `json:"path"`
	Segments      []string    `json:"segments"`
	Kind          string      `json:"kind"`
	Keywords      []string    `json:"keywords"`
	Fields        []fieldJSON `json:"fields"`
	Fragment      string      `json:"fragment"`
	Charset       string      `json:"charset"`
	CharsetSource string      `json:"charset_source"`
	Confidence    float64     `json:"confidence"`
	Hint          string      `json:"hint"`
	Warnings      []string    `json:"warnings"`
	Errors        []string    `json:"errors"`
}

type fieldJSON struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// errorJSON stands for an input that could not be decoded at all, so that
// a reader of the stream keeps one object per input.
type errorJSON struct {
	Line  int    `json:"line"`
	Input string `json:"input"`
	Error string `json:"error"`
}

func (r *decoded) json(line int) urlJSON {
	j := urlJSON{
		Line: line, Input: r.Input, URL: r.url(), Scheme: r.Raw.Scheme,
		Username: r.User, Password: r.Password,
		Host: r.hostUnicode(), HostASCII: r.hostASCII(), PortDefault: r.PortDefault,
		Path: r.path(), Segments: []string{}, Kind: decoder.Empty.String(),
		Keywords: []string{}, Fields: []fieldJSON{}, Fragment: r.Fragment,
		Charset: r.Choice.cs.Name(), CharsetSource: string(r.Choice.source), Confidence: r.Choice.confidence,
		Hint: r.Choice.hint, Warnings: []string{}, Errors: []string{},
	}
	if r.HasPort {
		j.Port = &r.Port
	}
	j.Segments = append(j.Segments, r.Segments...)
	if q := r.Query; q != nil {
		j.Kind = q.Kind.String()
		j.Keywords = append(j.Keywords, q.Keywords...)
		for _, f := range q.Fields {
			j.Fields = append(j.Fields, fieldJSON{f.Name, f.Value, f.Origin})
		}
	}
	j.Warnings = append(j.Warnings, r.Warnings...)
	for _, e := range r.Failed {
		j.Errors = append(j.Errors, e.Error())
	}
	return j
}

// writeJSON writes v on one line. Strings are made valid UTF-8 first by
// encoding/json itself (invalid bytes become U+FFFD); HTML escaping is
// off, as the stream is not HTML.
func writeJSON(w *bufio.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // every value written is a plain struct of strings and numbers
	}
}
