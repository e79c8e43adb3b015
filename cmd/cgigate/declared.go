package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"log"
	"strings"
	"sync"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/internal/forms"
	"github.com/cgigate/cgigate/internal/pages"
)

// declaredForms is the site's forms file, read once by the first request
// that needs it: in CGI mode that is the one request of the process, and
// a deployment without CGIGATE_FORMS never reads or parses anything here.
type declaredForms struct {
	once sync.Once
	set  *forms.Set
	err  error
}

func (g *gateway) declared() (*forms.Set, error) {
	g.forms.once.Do(func() {
		g.forms.set, g.forms.err = forms.Load(g.cfg.forms)
		if g.forms.err != nil {
			g.forms.err = fmt.Errorf("%w: CGIGATE_FORMS: %w", cgi.ErrServer, g.forms.err)
		}
	})
	return g.forms.set, g.forms.err
}

// site is how the gateway's pages are rendered.
func (g *gateway) site() pages.Site { return pages.Site{Name: g.cfg.siteName, Dir: g.cfg.templates} }

// fail answers err as cgi.WriteError does, with the site's error page in
// HTML (error.html, or the built-in one).
func (g *gateway) fail(w cgi.ResponseWriter, r *cgi.Request, err error) {
	cgi.WriteErrorWith(w, r, err, func(status int, msg string) ([]byte, error) {
		return g.site().Render(pages.Error, pages.NewErrorData(g.cfg.siteName, status, cgi.StatusText(status), msg))
	})
}

// serveDeclared answers a request addressed to a declared form
// (/cgi-bin/cgigate/NAME, by PATH_INFO) and reports true; it reports false
// for a request to the gateway itself (no PATH_INFO, or "/", as
// -http's and some servers' root gives it), which is answered as if no
// form were declared. A bad forms file is a 500 for every request, as a bad
// setting is.
func (g *gateway) serveDeclared(w cgi.ResponseWriter, r *cgi.Request) bool {
	var set *forms.Set
	if g.cfg.forms != "" {
		var err error
		if set, err = g.declared(); err != nil {
			g.fail(w, r, err)
			return true
		}
	}
	if r.PathInfo == "" || r.PathInfo == "/" {
		return false
	}
	var f *forms.Form
	if set != nil {
		f = set.Form(strings.TrimPrefix(r.PathInfo, "/"))
	}
	if f == nil {
		g.fail(w, r, &cgi.Error{Status: cgi.StatusNotFound, Op: "form", Input: r.PathInfo, Msg: "no form is declared at this address"})
		return true
	}
	g.serveForm(w, r, f)
	return true
}

// serveForm answers one declared form: its page, or a submission judged
// against the declaration.
func (g *gateway) serveForm(w cgi.ResponseWriter, r *cgi.Request, f *forms.Form) {
	page := (r.Method == "GET" || r.Method == "HEAD") && r.RawQuery == ""
	if !page && !f.Accepts(r.Method) {
		w.Header().Set("Allow", f.Allow())
		g.fail(w, r, &cgi.Error{Status: cgi.StatusMethodNotAllowed, Op: "form " + f.Name, Input: r.Method, Msg: "the form takes " + f.Allow()})
		return
	}
	if !page {
		// Before the body is read: a refused submission costs nothing.
		if err := f.CheckOrigin(r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site"), forms.SelfOrigin(r.Scheme, r.Host)); err != nil {
			g.fail(w, r, &cgi.Error{Status: cgi.StatusForbidden, Op: "origin", Err: err})
			return
		}
	}
	cfg := g.cfg.cgi
	cfg.Decoder.FormCharset = f.Charset
	form, err := cgi.ReadForm(r, cfg)
	if err != nil {
		g.fail(w, r, err)
		return
	}
	defer form.Close()
	res := newResult(form)
	res.Form = f.Name
	values := make([]forms.Value, len(form.Fields))
	for i, fd := range form.Fields {
		values[i] = forms.Value{Name: fd.Name, Value: fd.Value}
	}
	uploads := make([]forms.Upload, len(form.Files))
	for i, fl := range form.Files {
		uploads[i] = forms.Upload{Name: fl.Name, Filename: fl.Filename, ContentType: fl.ContentType, Size: fl.Size}
	}
	rf := cgi.NegotiateResponse(w, r)
	action := strings.TrimSuffix(r.Path, r.PathInfo) + "/" + f.Name
	switch {
	case page:
		if rf == cgi.HTML {
			g.formPage(w, r, f, pages.NewFormData(g.cfg.siteName, f, action, nil, nil))
			return
		}
		g.respondResult(w, r, rf, res)
	case f.Trapped(values):
		log.Printf("cgigate: form %s: honeypot %q filled by %s: answered as a success, not recorded", f.Name, f.Honeypot, r.RemoteAddr)
		g.accept(w, r, rf, f, form, res, values, uploads, false)
	default:
		if problems := f.Validate(values, uploads); len(problems) > 0 {
			g.invalid(w, r, rf, f, action, values, problems)
			return
		}
		g.accept(w, r, rf, f, form, res, values, uploads, f.Record && r.Method != "HEAD")
	}
}

// formCSP is the pages' policy, with the declared redirect's origin as a
// place the form may go: a browser applies form-action to the redirect
// after the submission too (CSP 3 § 6.4.2).
func formCSP(f *forms.Form) string {
	csp := resultCSP
	if strings.HasPrefix(f.Redirect, "http://") || strings.HasPrefix(f.Redirect, "https://") {
		scheme, rest, _ := strings.Cut(f.Redirect, "://")
		host, _, _ := strings.Cut(rest, "/")
		csp = strings.Replace(csp, "form-action 'self'", "form-action 'self' "+scheme+"://"+host, 1)
	}
	return csp
}

// formPage writes form.html in the form's charset: the one answer not in
// UTF-8, so that the browser sends the form in the charset the site
// declared (HTML § 4.10.21.4: a form's encoding is its accept-charset,
// else its document's).
func (g *gateway) formPage(w cgi.ResponseWriter, r *cgi.Request, f *forms.Form, data pages.FormData) {
	b, err := g.site().Render(pages.Form, data)
	if err == nil {
		b, err = encodePage(b, f.Charset)
	}
	if err != nil {
		g.fail(w, r, fmt.Errorf("%w: form %s: %w", cgi.ErrServer, f.Name, err))
		return
	}
	h := w.Header()
	cgi.SetHeader(h, "Content-Security-Policy", formCSP(f))
	h.Set("Content-Type", "text/html; charset="+f.Charset)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(data.Status)
	w.Write(b)
}

// encodePage encodes a rendered page in the form's charset; a character
// the charset lacks becomes a numeric character reference, which HTML
// reads back as the character.
func encodePage(b []byte, label string) ([]byte, error) {
	cs, err := charset.Lookup(label)
	if err != nil || cs == charset.UTF8 {
		return b, err
	}
	return cs.Encode(string(b), true)
}

// invalid answers a submission with problems: 422, every problem named,
// and in HTML the form again with the values kept.
func (g *gateway) invalid(w cgi.ResponseWriter, r *cgi.Request, rf cgi.Format, f *forms.Form, action string, values []forms.Value, problems []forms.Problem) {
	var why []string
	for _, p := range problems {
		why = append(why, p.Name+": "+p.Problem)
	}
	msg := fmt.Sprintf("form %s: %d field(s) failed: %s", f.Name, len(problems), strings.Join(why, "; "))
	log.Printf("cgigate: 422: %s", msg)
	switch rf {
	case cgi.HTML:
		g.formPage(w, r, f, pages.NewFormData(g.cfg.siteName, f, action, values, problems))
	case cgi.JSON:
		var b bytes.Buffer
		json.NewEncoder(&b).Encode(struct {
			Error    string          `json:"error"`
			Status   int             `json:"status"`
			Problems []forms.Problem `json:"problems"`
		}{msg, cgi.StatusUnprocessableEntity, problems})
		cgi.Respond(w, cgi.StatusUnprocessableEntity, rf, b.Bytes())
	default:
		var b bytes.Buffer
		fmt.Fprintf(&b, "%d %s\n\n%s\n", cgi.StatusUnprocessableEntity, cgi.StatusText(cgi.StatusUnprocessableEntity), msg)
		for _, p := range problems {
			fmt.Fprintf(&b, "problem: %q: %q\n", p.Name, p.Problem)
		}
		cgi.Respond(w, cgi.StatusUnprocessableEntity, rf, b.Bytes())
	}
}

// accept answers a submission that passed (or that a bot sent, record
// false): the answer is rendered first, whole, so that a template that
// fails records nothing; then the submission is recorded; then the answer
// goes out, a 303 to the declared redirect or the thank-you page.
func (g *gateway) accept(w cgi.ResponseWriter, r *cgi.Request, rf cgi.Format, f *forms.Form, form *cgi.Form, res result, values []forms.Value, uploads []forms.Upload, record bool) {
	res.Redirect = f.Redirect
	var b bytes.Buffer
	var err error
	switch rf {
	case cgi.JSON:
		err = writeJSON(&b, res)
	case cgi.Text:
		err = writeText(&b, res)
	default:
		if f.Redirect != "" {
			// Browsers follow a 303 at once; this is for a client that
			// does not.
			fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>See Other</title></head>\n<body><p>Thank you: your submission was received. <a href=\"%s\">Continue</a>.</p></body></html>\n", template.HTMLEscapeString(f.Redirect))
			cgi.SetHeader(w.Header(), "Content-Security-Policy", formCSP(f))
			break
		}
		var page []byte
		page, err = g.site().Render(pages.Thanks, pages.ThanksData{
			Page: pages.Page{Site: g.cfg.siteName, Title: f.Title}, Form: f, Redirect: f.Redirect, Lang: f.Lang, Words: pages.WordsFor(f.Lang),
			Received: pages.Received(f, values, uploads), Result: res,
		})
		b.Write(page)
		cgi.SetHeader(w.Header(), "Content-Security-Policy", formCSP(f))
	}
	if err != nil {
		w.Header().Del("Content-Security-Policy")
		g.fail(w, r, fmt.Errorf("%w: form %s: %w", cgi.ErrServer, f.Name, err))
		return
	}
	if record && g.cfg.record != "" {
		if err := g.recordSubmission(r, form, res, f.Files); err != nil {
			w.Header().Del("Content-Security-Policy")
			g.fail(w, r, err)
			return
		}
	}
	if f.Redirect == "" {
		cgi.Respond(w, cgi.StatusOK, rf, b.Bytes())
		return
	}
	if err := cgi.SeeOther(w, f.Redirect, rf, b.Bytes()); err != nil {
		g.fail(w, r, fmt.Errorf("%w: form %s: %w", cgi.ErrServer, f.Name, err))
	}
}

// respondResult writes res in a non-HTML rendering, whole.
func (g *gateway) respondResult(w cgi.ResponseWriter, r *cgi.Request, f cgi.Format, res result) {
	var b bytes.Buffer
	if f == cgi.JSON {
		writeJSON(&b, res)
	} else {
		writeText(&b, res)
	}
	cgi.Respond(w, cgi.StatusOK, f, b.Bytes())
}
