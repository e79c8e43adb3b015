package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// examples is the repository's example template set and forms file.
var examples, _ = filepath.Abs("../../examples")

func TestTheExampleTemplatesRenderEveryPage(t *testing.T) {
	forms := filepath.Join(examples, "forms.yaml")
	tmpl := filepath.Join(examples, "templates")
	kv := func(more ...string) []string {
		return append([]string{"CGIGATE_TEMPLATES", tmpl, "CGIGATE_FORMS", forms, "CGIGATE_SITE_NAME", "Example & Co"}, more...)
	}
	tests := []struct {
		name   string
		a      func(t *testing.T) answer
		status int
		want   []string
	}{
		{"prompt.html answers the prompt, its script allowed", func(t *testing.T) answer { return get(t, "", kv()...) }, 200,
			[]string{"<h1>Search the archive</h1>", "<header>Example &amp; Co</header>", `document.getElementById("isindex")`}},
		{"results.html answers a search", func(t *testing.T) answer { return get(t, "foo+bar", kv()...) }, 200,
			[]string{"<h1>Results for “foo” “bar”</h1>", "Nothing matches. Try other words."}},
		{"submitted.html answers an undeclared form", func(t *testing.T) answer { return get(t, "a=%3Cb%3E", kv()...) }, 200,
			[]string{"<dt>a</dt><dd>&lt;b&gt;</dd>"}},
		{"form.html is the form's page", func(t *testing.T) answer { return get(t, "", kv("PATH_INFO", "/contact")...) }, 200,
			[]string{`<form method="post" action="/cgi-bin/cgigate/contact" accept-charset="utf-8" enctype="multipart/form-data" novalidate>`, `<label for="f-email">Your e-mail address *</label>`, `<input name="website" tabindex="-1"`}},
		{"form.html comes back with the problems and the values", func(t *testing.T) answer {
			return postCGI(t, "application/x-www-form-urlencoded", "name=Ada&email=nope", kv("PATH_INFO", "/contact")...)
		}, 422, []string{"Some answers need another look", `value="Ada"`, `<p class="problem">We need an address to answer you.</p>`}},
		{"thanks.html thanks for a form without a redirect", func(t *testing.T) answer {
			return postCGI(t, "application/x-www-form-urlencoded", "name=%88%A4&message=hi", kv("PATH_INFO", "/toiawase")...)
		}, 200, []string{"We received your message to “お問い合わせ”", "<dt>お名前</dt><dd>愛</dd>"}},
		{"error.html answers a refusal", func(t *testing.T) answer { return get(t, "", kv("PATH_INFO", "/nope")...) }, 404,
			[]string{"<h1>Page not found</h1>", "quote “404”"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.a(t)
			if a.status != tt.status {
				t.Fatalf("status %d; want %d\n%s\n%s", a.status, tt.status, a.body, a.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(a.body, w) {
					t.Errorf("the page lacks %q:\n%s", w, a.body)
				}
			}
		})
	}
}

func TestAFailingTemplateIsA500AndNeverHalfAPage(t *testing.T) {
	tests := []struct{ name, file, text, why string }{
		{"a template that does not parse", "prompt.html", "<p>{{if .Site}}half a page</p>", "unexpected EOF"},
		{"a template that fails as it runs", "prompt.html", "<p>half a page {{.Nope}}</p>", "can't evaluate field Nope"},
		{"an error page that fails", "error.html", "<p>half a page {{.Nope}}</p>", "can't evaluate field Nope"},
		{"a form page that fails", "form.html", "<p>half a page {{.Nope}}</p>", "can't evaluate field Nope"},
		{"a thank-you page that fails, recording nothing", "thanks.html", "<p>half a page {{.Nope}}</p>", "can't evaluate field Nope"},
		{"a result page that fails", "submitted.html", "<p>half a page {{.Nope}}</p>", "can't evaluate field Nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.text), 0o644)
			rec := filepath.Join(dir, "record.jsonl")
			kv := []string{"CGIGATE_TEMPLATES", dir, "CGIGATE_FORMS", filepath.Join(examples, "forms.yaml"), "CGIGATE_RECORD", rec}
			var a answer
			switch tt.file {
			case "prompt.html":
				a = get(t, "", kv...)
			case "error.html":
				a = get(t, "", append(kv, "PATH_INFO", "/nope")...)
			case "form.html":
				a = get(t, "", append(kv, "PATH_INFO", "/contact")...)
			case "thanks.html":
				a = postCGI(t, "application/x-www-form-urlencoded", "name=a&message=b", append(kv, "PATH_INFO", "/toiawase")...)
			case "submitted.html":
				a = postCGI(t, "application/x-www-form-urlencoded", "a=1", kv...)
			}
			if a.status != 500 || strings.Contains(a.body, "half") {
				t.Errorf("status %d body %q", a.status, a.body)
			}
			if !strings.Contains(a.stderr, filepath.Join(dir, tt.file)) || !strings.Contains(a.stderr, tt.why) {
				t.Errorf("the error log %q does not name the file and why", a.stderr)
			}
			if tt.file == "thanks.html" {
				if _, err := os.Stat(rec); !os.IsNotExist(err) {
					t.Errorf("a submission whose page failed was recorded (%v)", err)
				}
			}
		})
	}
}
