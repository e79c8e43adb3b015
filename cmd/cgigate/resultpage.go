package main

import (
	"io"
	"strconv"
	"strings"
	"sync"

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
// A search's results are written the same way (writeSearchSection), with
// html/template's escaping of a quoted attribute (the same as text) and of
// a link (appendURLAttr); TestSearchSectionIsTheTemplate and
// FuzzSearchSection hold them to searchSectionHTML. Parsing that template
// was a CGI search process's largest cost after the runtime's start.

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

// writeHTML writes the result page. Its error is a failed write.
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
		writeSearchSection(p, res)
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

// writeSearchSection writes searchSectionHTML for res.
func writeSearchSection(p *pageWriter, res result) {
	nav := res.Nav()
	p.html(`<h2>Results</h2>
<form class="search" method="get" action="" accept-charset="utf-8"><input type="hidden" name="_charset_"><label>Search: <input name="`,
		nav.Field, `" value="`, nav.Query, `"></label> <button type="submit">Search</button></form>
<p class="total">`)
	p.b = strconv.AppendInt(p.b, int64(res.Total), 10)
	if res.Total == 1 {
		p.raw(" document matches")
	} else {
		p.raw(" documents match")
	}
	if res.Pages != 0 {
		p.raw(", page ")
		p.b = strconv.AppendInt(p.b, int64(res.Page), 10)
		p.raw(" of ")
		p.b = strconv.AppendInt(p.b, int64(res.Pages), 10)
	}
	p.raw(".</p>\n")
	if !nav.Linked {
		p.raw("<p class=\"note\">Links to the documents are not configured (CGIGATE_INDEX_URL).</p>\n")
	}
	if len(res.Results) > 0 {
		p.raw(`<ol class="results" start="`)
		p.b = strconv.AppendInt(p.b, int64(nav.Start), 10)
		p.raw(`">`)
		for _, r := range res.Results {
			if nav.Linked {
				p.raw(`<li><a href="`)
				p.b = appendURLAttr(p.b, r.URL)
				p.html(`">`, r.Title, "</a><p>")
			} else {
				p.html(`<li><span class="title">`, r.Title, "</span><p>")
			}
			for _, part := range r.Parts() {
				if part.Mark {
					p.html("<mark>", part.Text, "</mark>")
				} else {
					p.html("", part.Text)
				}
			}
			p.raw("</p></li>")
		}
		p.raw("</ol>\n")
	} else {
		p.raw("<p class=\"results\">Nothing matches your search. Try fewer or other words.</p>\n")
	}
	if nav.Prev != "" || nav.Next != "" {
		p.raw(`<nav class="pager">`)
		if nav.Prev != "" {
			p.raw(`<a rel="prev" href="`)
			p.b = appendURLAttr(p.b, nav.Prev)
			p.raw(`">Previous</a>`)
		}
		p.raw(" ")
		if nav.Next != "" {
			p.raw(`<a rel="next" href="`)
			p.b = appendURLAttr(p.b, nav.Next)
			p.raw(`">Next</a>`)
		}
		p.raw("</nav>\n")
	}
}

// appendURLAttr appends s as html/template writes a string into a quoted
// href: a URL whose scheme is not http, https or mailto becomes
// "#ZgotmplZ" (its urlFilter); every byte but letters, digits, - . _ ~,
// RFC 3986's reserved characters and a % that starts an escape is
// percent-encoded in lower-case hex (its urlNormalizer); and what is left
// is escaped for the attribute, & and + (its attrEscaper).
func appendURLAttr(b []byte, s string) []byte {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		s = "#ZgotmplZ"
	}
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '&':
			b = append(b, "&amp;"...)
		case c == '+':
			b = append(b, "&#43;"...)
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~!#$*,/:;=?@[]", c) >= 0,
			c == '%' && i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]):
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return b
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
