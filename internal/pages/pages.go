// Package pages renders the gateway's HTML pages: the built-in ones, or a
// site's own html/template files from the folder CGIGATE_TEMPLATES names.
// A page is rendered whole into memory before a byte of it is sent, so a
// template that fails is a 500 and never half a page. Nothing is parsed
// until a page is rendered: a CGI process renders one page and exits.
package pages

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cgigate/cgigate/internal/lazy"
)

// The pages a site may replace, each by a file of this name.
const (
	Prompt    = "prompt.html"    // the ISINDEX prompt (PromptData)
	Results   = "results.html"   // a search's results (ResultData)
	Form      = "form.html"      // a declared form, and again with its problems (FormData)
	Thanks    = "thanks.html"    // a declared form's answer without a redirect (ThanksData)
	Submitted = "submitted.html" // an undeclared form's answer (ResultData)
	Error     = "error.html"     // every refusal and fault (ErrorData)
)

// Site is how pages are rendered: the site's name, and the folder of its
// own templates ("" for the built-in pages only).
type Site struct {
	Name string // CGIGATE_SITE_NAME
	Dir  string // CGIGATE_TEMPLATES
}

// TemplateError is a site template that could not be read, parsed or
// executed: the gateway answers 500 and logs it.
type TemplateError struct {
	Path string
	Err  error
}

func (e *TemplateError) Error() string { return "template " + e.Path + ": " + e.Err.Error() }
func (e *TemplateError) Unwrap() error { return e.Err }

// Own reports whether the site has its own template for page.
func (s Site) Own(page string) bool {
	if s.Dir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(s.Dir, page))
	return err == nil
}

// Render executes page with data, the site's template when its folder
// holds one and the built-in one otherwise, into a buffer of its own.
func (s Site) Render(page string, data any) ([]byte, error) {
	t, path, err := s.template(page)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, &TemplateError{path, err}
	}
	return b.Bytes(), nil
}

// maxTemplateBytes bounds a site's template: it is read by the request.
const maxTemplateBytes = 1 << 20

// Shared is the file of a site's templates that every page is parsed
// with, when the folder holds one: the {{define}}s its pages share (a
// head, a footer).
const Shared = "layout.html"

func (s Site) template(page string) (*template.Template, string, error) {
	if s.Dir != "" {
		path := filepath.Join(s.Dir, page)
		src, err := readTemplate(path)
		switch {
		case err == nil:
			t := template.New(page).Funcs(funcs())
			shared := filepath.Join(s.Dir, Shared)
			if src, err := readTemplate(shared); err == nil {
				if _, err := t.Parse(src); err != nil {
					return nil, shared, &TemplateError{shared, err}
				}
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, shared, err
			}
			if _, err := t.Parse(src); err != nil {
				return nil, path, &TemplateError{path, err}
			}
			return t, path, nil
		case !errors.Is(err, fs.ErrNotExist):
			return nil, path, err
		}
	}
	b := builtin(page)
	if b == nil {
		return nil, page, &TemplateError{page, errors.New("no such page")}
	}
	return b.Get(), "built-in " + page, nil
}

// readTemplate reads a site's template, bounded.
func readTemplate(path string) (string, error) {
	src, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", err
	case err != nil:
		return "", &TemplateError{path, err}
	case len(src) > maxTemplateBytes:
		return "", &TemplateError{path, fmt.Errorf("larger than %d bytes", maxTemplateBytes)}
	}
	return string(src), nil
}

// funcs are what a site's templates may call besides html/template's own:
// a function, not a map variable, which every CGI process would build at
// init.
func funcs() template.FuncMap {
	return template.FuncMap{
		// stylesheet is the built-in pages' stylesheet, for a site's page
		// that wants their look: <style>{{stylesheet}}</style>.
		"stylesheet": stylesheet,
	}
}

func stylesheet() template.CSS { return template.CSS(Stylesheet) }

// Page is what every page's data holds.
type Page struct {
	Site  string // CGIGATE_SITE_NAME; "" when unset
	Title string // the page's own title
}

// FullTitle is the title with the site's name after it.
func (p Page) FullTitle() string {
	if p.Site == "" {
		return p.Title
	}
	return p.Title + " – " + p.Site
}

func builtin(page string) *lazy.Value[*template.Template] {
	switch page {
	case Prompt:
		return &promptPage
	case Form:
		return &formPage
	case Thanks:
		return &thanksPage
	case Error:
		return &errorPage
	}
	// results.html and submitted.html have no built-in template here: the
	// gateway streams its built-in result page, which may be far larger
	// than a page held whole.
	return nil
}

func parse(name, body string) *template.Template {
	t := template.Must(template.New(name).Funcs(funcs()).Parse(layout))
	template.Must(t.New("body").Parse(body))
	return t
}
