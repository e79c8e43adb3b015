package main

import (
	"html/template"
	"io"

	"github.com/cgigate/cgigate/internal/lazy"
	"github.com/cgigate/cgigate/internal/pages"
)

// The result page is written in parts, and each part that holds values is
// a template of its own, parsed and escaped on first use. A CGI process
// renders one page and exits, so parsing is paid on every request: a form's
// page now parses its head and its fields, not the keywords, results,
// files and warnings it does not show (5% of the process's time).
//
// Each template starts and ends between elements, where html/template
// escapes in its HTML text context, and html/template refuses to execute
// one that ends in another context (ErrEndContext): the parts are escaped
// as one page holding them all would be. TestResultPageIsTheWholeTemplate
// holds the page to that template, byte for byte.
type pagePart struct {
	show func(result) bool // nil: always
	html *lazy.Value[*template.Template]
	text string // written as it is when html is nil: constant markup only
}

// parse parses a part's template; the parts call it on first use, and
// are static data: a CGI process allocates nothing for them at init.
func parse(name, text string) *template.Template {
	return template.Must(template.New(name).Parse(text))
}

var resultPage = []pagePart{
	{html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("head", `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.PageTitle}}</title>
`)
	}}},
	// The stylesheet is constant: written as it is, never parsed.
	{text: "<style>" + pages.Stylesheet + "</style>\n</head>\n<body>\n"},
	{html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("header", `<header>{{if .SiteName}}<a href="/">{{.SiteName}}</a>{{else}}&nbsp;{{end}}</header>
<main>
<h1>{{.Heading}}</h1>
`)
	}}},
	{show: func(r result) bool { return len(r.Keywords) > 0 }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("keywords", `<p class="lead">You searched for {{range $i, $k := .Keywords}}{{if $i}} {{end}}<strong class="keyword">{{$k}}</strong>{{end}}</p>`)
	}}},
	{text: "\n"},
	{show: func(r result) bool { return r.searched }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("results", searchSectionHTML)
	}}},
	{text: "\n"},
	{show: func(r result) bool { return len(r.Fields) > 0 }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("fields", `<h2>What you sent</h2><dl class="received">
{{range .Fields}}{{if ne .Name "_charset_"}}<dt>{{.Name}}</dt><dd>{{.Value}}</dd>
{{end}}{{end}}</dl>`)
	}}},
	{text: "\n"},
	{show: func(r result) bool { return len(r.Files) > 0 }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("files", `<h2>Files</h2><dl class="received">
{{range .Files}}<dt>{{.Name}}</dt><dd>{{.Filename}} ({{.Size}} bytes)</dd>
{{end}}</dl>`)
	}}},
	{text: "\n"},
	// What a visitor need not read, for whoever looks: how the request
	// was decoded, and the warnings, collapsed.
	{html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("details", `<details><summary>Technical details</summary>
<p>Method {{.Method}}, charset <code>{{.Charset}}</code> ({{.CharsetSource}})</p>
{{if .Fields}}<ul class="sources">{{range .Fields}}<li><code>{{.Name}}</code> from the {{.Source}}</li>{{end}}</ul>{{end}}
{{if .Files}}<ul class="files">{{range .Files}}<li><code>{{.Name}}</code>: {{.ContentType}}, sha256 <code>{{.SHA256}}</code></li>{{end}}</ul>{{end}}
{{if .Warnings}}<h2>Warnings</h2><ul class="warnings">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>{{end}}
</details>`)
	}}},
	{text: "\n</main>\n</body></html>\n"},
}

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
	for _, p := range resultPage {
		if p.show != nil && !p.show(res) {
			continue
		}
		if p.html == nil {
			if _, err := io.WriteString(w, p.text); err != nil {
				return err
			}
			continue
		}
		if err := p.html.Get().Execute(w, res); err != nil {
			return err
		}
	}
	return nil
}
