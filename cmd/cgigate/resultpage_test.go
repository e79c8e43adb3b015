package main

import (
	"bytes"
	"html/template"
	"slices"
	"testing"
)

// wholePage is the result page as it was before it was cut into parts: one
// template, with every section's condition inside it. It is the truth the
// parts are held to.
var wholePage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cgigate: {{.Kind}}</title></head>
<body>
<h1>{{.Kind}}</h1>
<p>Method {{.Method}}, charset <code>{{.Charset}}</code> ({{.CharsetSource}})</p>
{{if .Keywords}}<h2>Keywords</h2><ul class="keywords">{{range .Keywords}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Searched}}` + searchSectionHTML + `{{end}}
{{if .Fields}}<h2>Fields</h2><table class="fields"><tr><th>name</th><th>value</th><th>source</th></tr>
{{range .Fields}}<tr><td>{{.Name}}</td><td>{{.Value}}</td><td>{{.Source}}</td></tr>
{{end}}</table>{{end}}
{{if .Files}}<h2>Files</h2><table class="files"><tr><th>name</th><th>file name</th><th>type</th><th>size</th><th>sha256</th></tr>
{{range .Files}}<tr><td>{{.Name}}</td><td>{{.Filename}}</td><td>{{.ContentType}}</td><td>{{.Size}}</td><td><code>{{.SHA256}}</code></td></tr>
{{end}}</table>{{end}}
{{if .Warnings}}<h2>Warnings</h2><ul class="warnings">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>{{end}}
</body></html>
`

type wholePageData struct {
	result
	Searched bool
}

func TestResultPageIsTheWholeTemplate(t *testing.T) {
	whole := template.Must(template.New("result").Parse(wholePage))
	for n, res := range append(randomResults(300), result{}, result{searched: true}) {
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

// A form's page executes the head and the fields and no other template:
// the rest is never parsed, which is what cutting the page saves.
func TestAFormsPageExecutesOnlyItsParts(t *testing.T) {
	res := result{Fields: []fieldJSON{{"q", "v", "query"}}}
	var executed []string
	for _, p := range resultPage {
		if p.html != nil && (p.show == nil || p.show(res)) {
			executed = append(executed, p.html.Get().Name())
		}
	}
	if !slices.Equal(executed, []string{"head", "fields"}) {
		t.Errorf("a form's page executes %v; want [head fields]", executed)
	}
}
