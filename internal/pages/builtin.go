package pages

import (
	"html/template"

	"github.com/cgigate/cgigate/internal/lazy"
)

// Stylesheet is the built-in pages' whole style: readable type, a column
// that fits a phone and a desktop, visible focus and errors. It is inline
// (the pages' Content-Security-Policy allows inline style and nothing
// else), about 1.5 KB.
const Stylesheet = `:root{color-scheme:light dark;--fg:#1b1b1f;--bg:#fff;--muted:#5b5b66;--line:#d0d0d7;--accent:#1f5fbf;--bad:#b3261e;--badbg:#fdecea;--ok:#1e6b35}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8ec;--bg:#17171a;--muted:#a5a5b0;--line:#3a3a42;--accent:#8ab4f8;--bad:#f2b8b5;--badbg:#3b1d1b;--ok:#8fd19e}}
*{box-sizing:border-box}
body{margin:0;font:1.0625rem/1.55 system-ui,-apple-system,"Segoe UI","Hiragino Sans","Noto Sans CJK JP","Noto Sans JP",sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:42rem;margin:0 auto;padding:0 1.25rem}
header{padding-top:1rem;padding-bottom:.75rem;border-bottom:1px solid var(--line);color:var(--muted);font-size:.95rem}
header a{color:inherit;text-decoration:none;font-weight:600}
main{padding-top:1.25rem;padding-bottom:2.5rem}
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.75rem 0 .5rem}
a{color:var(--accent)}
p.lead{font-size:1.125rem}
form .field{margin:0 0 1.1rem}
label,.label{display:block;font-weight:600;margin-bottom:.3rem}
.req{color:var(--bad);font-weight:400}
input,select,textarea,button{font:inherit;color:inherit}
input:not([type=checkbox]):not([type=radio]),select,textarea{width:100%;padding:.55rem .65rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg)}
textarea{min-height:9rem;resize:vertical}
input:focus,select:focus,textarea:focus,button:focus{outline:3px solid var(--accent);outline-offset:1px}
.check{display:flex;gap:.5rem;align-items:center;font-weight:400}
button{padding:.6rem 1.4rem;border:0;border-radius:.4rem;background:var(--accent);color:var(--bg);font-weight:600;cursor:pointer}
.problem{color:var(--bad);margin:.3rem 0 0;font-size:.95rem}
.invalid input:not([type=checkbox]):not([type=radio]),.invalid select,.invalid textarea{border-color:var(--bad);border-width:2px}
.alert{border-left:4px solid var(--bad);background:var(--badbg);padding:.75rem 1rem;margin:0 0 1.5rem;border-radius:.25rem}
.alert p{margin:0}
.alert ul{margin:.25rem 0 0;padding-left:1.2rem}
.done{border-left:4px solid var(--ok);padding:.25rem 1rem;margin:0 0 1.5rem}
dl.received{display:grid;grid-template-columns:minmax(6rem,auto) 1fr;gap:.4rem 1rem;margin:0}
dl.received dt{font-weight:600;color:var(--muted)}
dl.received dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
ol.results{padding-left:1.2rem}ol.results li{margin-bottom:1rem}ol.results p{margin:.2rem 0 0;color:var(--muted)}
details{margin-top:2rem;color:var(--muted);font-size:.9rem}
details summary{cursor:pointer}
details code,details li{overflow-wrap:anywhere}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
`

// layout is every built-in page's frame; "body" is the page's own part.
const layout = `<!DOCTYPE html>
<html lang="{{block "lang" .}}en{{end}}"><head><meta charset="{{block "charset" .}}utf-8{{end}}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.FullTitle}}</title>
<style>{{stylesheet}}</style>
</head>
<body>
<header>{{if .Site}}<a href="/">{{.Site}}</a>{{else}}&nbsp;{{end}}</header>
<main>
{{template "body" .}}
</main>
</body></html>
`

var promptPage = lazy.Value[*template.Template]{New: func() *template.Template {
	return parse(Prompt, `<h1>{{.Title}}</h1>
<p class="lead">This is a searchable index: enter the words to look for.</p>
<form id="isindex" method="get" action="" accept-charset="utf-8" role="search">
<div class="field"><label for="q">Search for</label><input id="q" name="isindex" type="search" autofocus></div>
<button type="submit">Search</button>
</form>
<script>{{.Script}}</script>`)
}}

var formPage = lazy.Value[*template.Template]{New: func() *template.Template {
	t := parse(Form, `<h1>{{.Title}}</h1>
{{if .Problems}}<div class="alert" role="alert" id="problems"><p><strong>{{if eq (len .Problems) 1}}{{.Words.CheckOne}}{{else}}{{printf .Words.CheckMany (len .Problems)}}{{end}}</strong></p><ul>{{range .Problems}}<li><a href="#f-{{.Name}}">{{.Label}}</a>: {{.Problem}}</li>{{end}}</ul></div>{{end}}
<form method="{{.Method}}" action="{{.Action}}" accept-charset="{{.Charset}}"{{if .Multipart}} enctype="multipart/form-data"{{end}} novalidate>
<input type="hidden" name="_charset_" value="">
{{range .Fields}}<div class="field{{if .Problem}} invalid{{end}}">
{{if eq .Kind "checkbox"}}{{if .Choices}}<fieldset><legend class="label">{{.Label}}{{if .Required}} <span class="req">{{$.Words.Required}}</span>{{end}}</legend>{{range .Choices}}<label class="check"><input type="checkbox" name="{{.Name}}" value="{{.Value}}"{{if .Selected}} checked{{end}}> {{.Value}}</label>{{end}}</fieldset>{{else}}<label class="check" for="f-{{.Name}}"><input type="checkbox" id="f-{{.Name}}" name="{{.Name}}"{{if .Checked}} checked{{end}}{{if .Problem}} aria-invalid="true" aria-describedby="p-{{.Name}}"{{end}}> {{.Label}}{{if .Required}} <span class="req">{{$.Words.Required}}</span>{{end}}</label>{{end}}
{{else}}<label for="f-{{.Name}}">{{.Label}}{{if .Required}} <span class="req">{{$.Words.Required}}</span>{{end}}</label>
{{if .Multiline}}<textarea id="f-{{.Name}}" name="{{.Name}}"{{if .Required}} required{{end}}{{if .MaxLength}} maxlength="{{.MaxLength}}"{{end}}{{if .Problem}} aria-invalid="true" aria-describedby="p-{{.Name}}"{{end}}>{{.Value}}</textarea>
{{else if eq .Kind "choice"}}<select id="f-{{.Name}}" name="{{.Name}}"{{if .Required}} required{{end}}{{if .Problem}} aria-invalid="true" aria-describedby="p-{{.Name}}"{{end}}><option value="">{{$.Words.Choose}}</option>{{range .Choices}}<option{{if .Selected}} selected{{end}}>{{.Value}}</option>{{end}}</select>
{{else}}<input id="f-{{.Name}}" name="{{.Name}}" type="{{.Type}}"{{if ne .Type "file"}} value="{{.Value}}"{{end}}{{if .Required}} required{{end}}{{if .MaxLength}} maxlength="{{.MaxLength}}"{{end}}{{if .Min}} min="{{.Min}}"{{end}}{{if .Max}} max="{{.Max}}"{{end}}{{if .Accept}} accept="{{.Accept}}"{{end}}{{if eq .Kind "email"}} autocomplete="email"{{end}}{{if .Problem}} aria-invalid="true" aria-describedby="p-{{.Name}}"{{end}}>
{{end}}{{end}}{{if .Problem}}<p class="problem" id="p-{{.Name}}">{{.Problem}}</p>{{end}}
</div>
{{end}}{{if .Honeypot}}<div class="hp" aria-hidden="true"><label for="f-{{.Honeypot}}">{{.Words.LeaveEmpty}}</label><input id="f-{{.Honeypot}}" name="{{.Honeypot}}" tabindex="-1" autocomplete="off"></div>
{{end}}<button type="submit">{{.Words.Send}}</button>
</form>`)
	template.Must(t.New("lang").Parse(`{{.Lang}}`))
	template.Must(t.New("charset").Parse(`{{.Charset}}`))
	return t
}}

var thanksPage = lazy.Value[*template.Template]{New: func() *template.Template {
	t := parse(Thanks, `<h1>{{.Title}}</h1>
<div class="done" role="status"><p class="lead">{{.Words.Received}}{{if .Redirect}} <a href="{{.Redirect}}">{{.Words.Continue}}</a>{{end}}</p></div>
{{if and (not .Redirect) .Received}}<h2>{{.Words.WhatYouSent}}</h2>
<dl class="received">{{range .Received}}<dt>{{.Label}}</dt><dd>{{.Value}}</dd>{{end}}</dl>{{end}}`)
	template.Must(t.New("lang").Parse(`{{.Lang}}`))
	return t
}}

var errorPage = lazy.Value[*template.Template]{New: func() *template.Template {
	return parse(Error, `<h1>{{.Title}}</h1>
<p class="lead">{{.Message}}</p>
<p>{{.Advice}}</p>
<details><summary>Technical details</summary><p>{{.Status}} {{.StatusText}}{{if .Detail}}: <code>{{.Detail}}</code>{{end}}</p></details>`)
}}
