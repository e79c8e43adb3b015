package main

import (
	"html/template"
	"io"

	"github.com/cgigate/cgigate/internal/lazy"
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
<html lang="en"><head><meta charset="utf-8"><title>cgigate: {{.Kind}}</title></head>
<body>
<h1>{{.Kind}}</h1>
<p>Method {{.Method}}, charset <code>{{.Charset}}</code> ({{.CharsetSource}})</p>
`)
	}}},
	{show: func(r result) bool { return len(r.Keywords) > 0 }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("keywords", `<h2>Keywords</h2><ul class="keywords">{{range .Keywords}}<li>{{.}}</li>{{end}}</ul>`)
	}}},
	{text: "\n"},
	{show: func(r result) bool { return r.searched }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("results", searchSectionHTML)
	}}},
	{text: "\n"},
	{show: func(r result) bool { return len(r.Fields) > 0 }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("fields", `<h2>Fields</h2><table class="fields"><tr><th>name</th><th>value</th><th>source</th></tr>
{{range .Fields}}<tr><td>{{.Name}}</td><td>{{.Value}}</td><td>{{.Source}}</td></tr>
{{end}}</table>`)
	}}},
	{text: "\n"},
	{show: func(r result) bool { return len(r.Files) > 0 }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("files", `<h2>Files</h2><table class="files"><tr><th>name</th><th>file name</th><th>type</th><th>size</th><th>sha256</th></tr>
{{range .Files}}<tr><td>{{.Name}}</td><td>{{.Filename}}</td><td>{{.ContentType}}</td><td>{{.Size}}</td><td><code>{{.SHA256}}</code></td></tr>
{{end}}</table>`)
	}}},
	{text: "\n"},
	{show: func(r result) bool { return len(r.Warnings) > 0 }, html: &lazy.Value[*template.Template]{New: func() *template.Template {
		return parse("warnings", `<h2>Warnings</h2><ul class="warnings">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>`)
	}}},
	{text: "\n</body></html>\n"},
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
