package main

import (
	"bytes"
	"html/template"
	"testing"

	"github.com/cgigate/cgigate/internal/pages"
)

// wholePage is the result page as it was before it was cut into parts: one
// template, with every section's condition inside it. It is the truth the
// parts are held to.
var wholePage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.PageTitle}}</title>
<style>` + pages.Stylesheet + `</style>
</head>
<body>
<header>{{if .SiteName}}<a href="/">{{.SiteName}}</a>{{else}}&nbsp;{{end}}</header>
<main>
<h1>{{.Heading}}</h1>
{{if .Keywords}}<p class="lead">You searched for {{range $i, $k := .Keywords}}{{if $i}} {{end}}<strong class="keyword">{{$k}}</strong>{{end}}</p>{{end}}
{{if .Searched}}` + searchSectionHTML + `{{end}}
{{if .Fields}}<h2>What you sent</h2><dl class="received">
{{range .Fields}}{{if ne .Name "_charset_"}}<dt>{{.Name}}</dt><dd>{{.Value}}</dd>
{{end}}{{end}}</dl>{{end}}
{{if .Files}}<h2>Files</h2><dl class="received">
{{range .Files}}<dt>{{.Name}}</dt><dd>{{.Filename}} ({{.Size}} bytes)</dd>
{{end}}</dl>{{end}}
<details><summary>Technical details</summary>
<p>Method {{.Method}}, charset <code>{{.Charset}}</code> ({{.CharsetSource}})</p>
{{if .Fields}}<ul class="sources">{{range .Fields}}<li><code>{{.Name}}</code> from the {{.Source}}</li>{{end}}</ul>{{end}}
{{if .Files}}<ul class="files">{{range .Files}}<li><code>{{.Name}}</code>: {{.ContentType}}, sha256 <code>{{.SHA256}}</code></li>{{end}}</ul>{{end}}
{{if .Warnings}}<h2>Warnings</h2><ul class="warnings">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>{{end}}
</details>
</main>
</body></html>
`

type wholePageData struct {
	result
	Searched bool
}

func TestResultPageIsTheWholeTemplate(t *testing.T) {
	whole := template.Must(template.New("result").Parse(wholePage))
	for n, res := range append(randomResults(300), result{}, result{searched: true}, result{site: "例 <Site>", Kind: "isindex"}) {
		var want, got bytes.Buffer
		if err := whole.Execute(&want, wholePageData{res, res.searched}); err != nil {
			t.Fatal(err)
		}
		if err := writeHTML(&got, res); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("result %d (%+v) differs:\ngot  %s\nwant %s", n, res, got.String(), want.String())
		}
	}
}

// appendHTMLText is the escaping html/template gives a string in HTML
// text and in a <title>, which the result page's template had: every byte,
// every ASCII pair, invalid UTF-8 and the noncharacters html/template
// treats apart in attributes.
func TestHTMLTextIsHTMLTemplatesEscaping(t *testing.T) {
	text := template.Must(template.New("text").Parse(`<p>{{.}}</p>`))
	title := template.Must(template.New("title").Parse(`<title>{{.}}</title>`))
	inputs := []string{"", "plain", "a+b", "\x00\x00", "caf\xc3\xa9 <b>&amp;\"'", "\xff\xfe", "\ufdd0\uffff", "\xe5\x8d"}
	for c := range 256 {
		inputs = append(inputs, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	for _, in := range inputs {
		for _, tc := range []struct {
			tmpl       *template.Template
			open, shut string
		}{{text, "<p>", "</p>"}, {title, "<title>", "</title>"}} {
			var want bytes.Buffer
			if err := tc.tmpl.Execute(&want, in); err != nil {
				t.Fatal(err)
			}
			if got := tc.open + string(appendHTMLText(nil, in)) + tc.shut; got != want.String() {
				t.Errorf("%q: got %q, html/template gives %q", in, got, want.String())
			}
		}
	}
}
