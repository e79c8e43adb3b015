package main

import (
	"html/template"
	"io"
	"strconv"
	"sync"

	"github.com/cgigate/cgigate/internal/lazy"
	"github.com/cgigate/cgigate/internal/pages"
)

// The result page is written by Go code, not executed as a template:
// html/template calls its escaper on every value through reflection, and
// under FastCGI, where nothing is parsed per request, that was a fifth of
// the server's CPU. The code writes what the page's template would, byte
// for byte, with html/template's own escaping of text (htmlText):
// TestResultPageIsTheWholeTemplate holds it to the template, which lives
// in the test as the page's definition. A CGI process parses nothing for
// a form's page.
//
// A search's results are still a template (searchSectionHTML), parsed on
// first use: their links and attributes need html/template's contextual
// escaping, and a search reads an index, which costs far more.
var resultsSection = lazy.Value[*template.Template]{New: func() *template.Template {
	return template.Must(template.New("results").Parse(searchSectionHTML))
}}

// SiteName is CGIGATE_SITE_NAME, for the pages.
func (r result) SiteName() string { return r.site }

// Heading is what the result page says it is, for a visitor.
func (r result) Heading() string {
	switch {
	case r.Kind == "isindex":
		return "Search results"
	case r.Kind == "form":
		return "Your submission was received"
	}
	return "Nothing was sent"
}

// PageTitle is the heading with the site's name after it.
func (r result) PageTitle() string {
	if r.site == "" {
		return r.Heading()
	}
	return r.Heading() + " – " + r.site
}

// writeHTML writes the result page. Its error is a template fault or a
// failed write.
func writeHTML(w io.Writer, res result) error {
	p := newPageWriter(w)
	defer p.release()
	p.html("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
		res.PageTitle(), "</title>\n<style>"+pages.Stylesheet+"</style>\n</head>\n<body>\n<header>")
	if res.site != "" {
		p.html(`<a href="/">`, res.site, "</a>")
	} else {
		p.raw("&nbsp;")
	}
	p.html("</header>\n<main>\n<h1>", res.Heading(), "</h1>\n")
	if len(res.Keywords) > 0 {
		p.raw(`<p class="lead">You searched for `)
		for i, k := range res.Keywords {
			if i > 0 {
				p.raw(" ")
			}
			p.html(`<strong class="keyword">`, k, "</strong>")
		}
		p.raw("</p>")
	}
	p.raw("\n")
	if res.searched {
		if err := p.flush(); err != nil {
			return err
		}
		if err := resultsSection.Get().Execute(w, res); err != nil {
			return err
		}
	}
	p.raw("\n")
	section(p, res.Fields, "<h2>What you sent</h2><dl class=\"received\">\n", "</dl>", func(f fieldJSON) {
		if f.Name != "_charset_" {
			p.html("<dt>", f.Name, "</dt><dd>", f.Value, "</dd>\n")
		}
	})
	p.raw("\n")
	section(p, res.Files, "<h2>Files</h2><dl class=\"received\">\n", "</dl>", func(f fileJSON) {
		p.html("<dt>", f.Name, "</dt><dd>", f.Filename, " (")
		p.b = strconv.AppendInt(p.b, f.Size, 10)
		p.raw(" bytes)</dd>\n")
	})
	// What a visitor need not read, for whoever looks: how the request
	// was decoded, and the warnings, collapsed.
	p.html("\n<details><summary>Technical details</summary>\n<p>Method ", res.Method, ", charset <code>", res.Charset,
		"</code> (", res.CharsetSource, ")</p>\n")
	section(p, res.Fields, `<ul class="sources">`, "</ul>", func(f fieldJSON) {
		p.html("<li><code>", f.Name, "</code> from the ", f.Source, "</li>")
	})
	p.raw("\n")
	section(p, res.Files, `<ul class="files">`, "</ul>", func(f fileJSON) {
		p.html("<li><code>", f.Name, "</code>: ", f.ContentType, ", sha256 <code>", f.SHA256, "</code></li>")
	})
	p.raw("\n")
	section(p, res.Warnings, `<h2>Warnings</h2><ul class="warnings">`, "</ul>", func(w string) {
		p.html("<li>", w, "</li>")
	})
	p.raw("\n</details>\n</main>\n</body></html>\n")
	return p.flush()
}

// section writes open, item of each of xs and shut, when xs has any: a
// template's {{if .Xs}}open{{range .Xs}}...{{end}}shut{{end}}.
func section[T any](p *pageWriter, xs []T, open, shut string, item func(T)) {
	if len(xs) == 0 {
		return
	}
	p.raw(open)
	for _, x := range xs {
		item(x)
	}
	p.raw(shut)
}

// pageWriter gathers a page in a buffer and passes it on whenever it
// holds pageChunk bytes: a few writes for a small page, and a large form's
// page is never held whole.
type pageWriter struct {
	w   io.Writer
	b   []byte
	err error
}

const pageChunk = 8 << 10

// pageBuffers keeps the writers' buffers from one request to the next in
// a long-lived (FastCGI) process.
var pageBuffers = sync.Pool{New: func() any { b := make([]byte, 0, pageChunk+pageChunk/2); return &b }}

func newPageWriter(w io.Writer) *pageWriter {
	return &pageWriter{w: w, b: (*pageBuffers.Get().(*[]byte))[:0]}
}

// release gives the buffer back; p is not used after it.
func (p *pageWriter) release() {
	if cap(p.b) <= 4*pageChunk {
		b := p.b[:0]
		pageBuffers.Put(&b)
	}
	p.b = nil
}

// raw appends markup as it is.
func (p *pageWriter) raw(s string) {
	p.b = append(p.b, s...)
	if len(p.b) >= pageChunk {
		p.flush()
	}
}

// html appends markup and text in turn: its first argument as it is,
// the second escaped as HTML text, the third as it is, and so on.
func (p *pageWriter) html(parts ...string) {
	for i, s := range parts {
		if i%2 == 0 {
			p.b = append(p.b, s...)
		} else {
			p.b = appendHTMLText(p.b, s)
		}
	}
	if len(p.b) >= pageChunk {
		p.flush()
	}
}

// flush writes what is gathered; the first failed write is kept and
// returned from then on.
func (p *pageWriter) flush() error {
	if p.err == nil && len(p.b) > 0 {
		_, p.err = p.w.Write(p.b)
	}
	p.b = p.b[:0]
	return p.err
}

// appendHTMLText appends s escaped as html/template escapes a string in
// HTML text and in RCDATA (a <title>): NUL becomes U+FFFD, and " & ' + <
// > their character references; every other byte is kept, as its
// htmlReplacer keeps it. TestHTMLTextIsHTMLTemplatesEscaping holds the two
// together over every byte.
func appendHTMLText(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var repl string
		switch s[i] {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, repl...)
		last = i + 1
	}
	return append(b, s[last:]...)
}
