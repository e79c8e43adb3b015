package main

import (
	"bytes"
	"html/template"
	"io"
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

// searchSectionResult is a searched result whose every part searchSectionHTML
// shows is given.
func searchSectionResult(title, url, snippet string, hl [2]int, field, query, prev, next string, linked bool, total, page, pages int) result {
	r := searchResult{Title: title, URL: url, Snippet: snippet, Highlights: [][2]int{hl}}
	res := result{searched: true, Total: total, Page: page, Pages: pages,
		nav: &searchNav{Field: field, Query: query, Linked: linked, Start: total, Prev: prev, Next: next}}
	if total%3 != 0 {
		res.Results = []searchResult{r, r}
	}
	return res
}

// checkSearchSection fails t when writeSearchSection and the template it
// replaced differ for res.
func checkSearchSection(t *testing.T, section *template.Template, res result) {
	t.Helper()
	var want, got bytes.Buffer
	if err := section.Execute(&want, res); err != nil {
		t.Fatal(err)
	}
	p := newPageWriter(&got)
	writeSearchSection(p, res)
	if err := p.flush(); err != nil {
		t.Fatal(err)
	}
	p.release()
	if got.String() != want.String() {
		t.Fatalf("differs from the template:\ngot  %q\nwant %q", got.String(), want.String())
	}
}

// The search section is written as searchSectionHTML executes, links
// included: html/template filters a link's scheme, normalises its
// percent-encoding and escapes it for the attribute.
func TestSearchSectionIsTheTemplate(t *testing.T) {
	section := template.Must(template.New("results").Parse(searchSectionHTML))
	urls := []string{"", "/docs/a b.html", "javascript:alert(1)", "JaVaScRiPt:x", "HTTPS://x/y?a=1&b=2+3", "mailto:a@b", "data:text/html,x",
		"/a:b", "a/b:c", "%", "%4", "%41%zz%", "/d/%e5%8D", "\"'<>` \t\n\x00\x7f\xff", "/文書/印刷.html", "?q=a&page=2", "#frag", "/(x)[y]{z}|\\^"}
	for c := range 256 {
		urls = append(urls, "/x"+string([]byte{byte(c)})+"y")
	}
	for _, u := range urls {
		t.Run(u, func(t *testing.T) {
			checkSearchSection(t, section, searchSectionResult("T <&>", u, "café crème", [2]int{1, 3}, "q", "a\"b", u, "?"+u, true, 2, 1, 1))
		})
	}
}

func FuzzSearchSection(f *testing.F) {
	section := template.Must(template.New("results").Parse(searchSectionHTML))
	f.Add("印刷 <b>", "/d/a%20b?x=1&y=\"2\"", "café & crème", 0, 2, "q", "'x'", "?q=a+b&page=1", "javascript:alert(1)", true, 21, 2, 3)
	f.Add("", "", "", 0, 0, "", "", "", "", false, 0, 0, 0)
	f.Fuzz(func(t *testing.T, title, url, snippet string, from, to int, field, query, prev, next string, linked bool, total, page, pages int) {
		checkSearchSection(t, section, searchSectionResult(title, url, snippet, [2]int{from, to}, field, query, prev, next, linked, total, page, pages))
	})
}

// A page of search results is written with about five allocations a result
// (cutting its snippet into parts), where executing searchSectionHTML
// allocated for every value it escaped: 626 for these ten results, and
// the parsing, once a process, that a CGI search paid each time.
func TestSearchResultsPageAllocatesLittle(t *testing.T) {
	res := searchSectionResult("A title & more", "/site/a b/c.html", "printing presses and printing plates", [2]int{0, 8}, "q", "printing", "?q=printing&page=1", "?q=printing&page=3", true, 230, 2, 23)
	r := res.Results[0]
	res.Results = nil
	for range 10 {
		res.Results = append(res.Results, r)
	}
	allocs := testing.AllocsPerRun(20, func() {
		if err := writeHTML(io.Discard, res); err != nil {
			t.Fatal(err)
		}
	})
	if limit := float64(6*len(res.Results) + 10); allocs > limit {
		t.Errorf("%v allocations for a page of %d results, want at most %v", allocs, len(res.Results), limit)
	}
}
