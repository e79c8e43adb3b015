package main

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/internal/lazy"
)

// gateway is the cgigate handler: the ISINDEX prompt, searches, form
// submissions, each rendered by the Accept header.
type gateway struct {
	cfg    config
	cfgErr error // a bad configuration: every request is a 500
	now    func() time.Time
	forms  declaredForms // CGIGATE_FORMS, read by the first request that needs it
}

func newGateway(cfg config, cfgErr error) *gateway {
	return &gateway{cfg: cfg, cfgErr: cfgErr, now: time.Now}
}

// isindexField is the field the prompt page's no-script fallback sends.
const isindexField = "isindex"

func (g *gateway) ServeCGI(w cgi.ResponseWriter, r *cgi.Request) {
	if g.cfgErr != nil {
		g.fail(w, r, g.cfgErr)
		return
	}
	if (r.PathInfo != "" && r.PathInfo != "/" || g.cfg.forms != "") && g.serveDeclared(w, r) {
		return
	}
	form, err := cgi.ReadForm(r, g.cfg.cgi)
	if err != nil {
		g.fail(w, r, err)
		return
	}
	defer form.Close()
	page, err := g.searchBox(form)
	if err == nil {
		err = g.isindexFallback(form)
	}
	if err != nil {
		g.fail(w, r, err)
		return
	}
	f := cgi.NegotiateResponse(w, r)
	if form.Kind == decoder.Empty && f == cgi.HTML {
		g.prompt(w, r)
		return
	}
	res := newResult(form)
	res.site = g.cfg.siteName
	switch {
	case form.Kind == decoder.ISINDEX && g.cfg.indexDir != "":
		if err := g.search(&res, form.Keywords, page); err != nil {
			g.fail(w, r, err)
			return
		}
	case form.Kind == decoder.Form && g.cfg.record != "" && r.Method != "HEAD": // HEAD is safe (RFC 9110 § 9.3.2)
		if err := g.recordSubmission(r, form, res, ""); err != nil {
			g.fail(w, r, err)
			return
		}
	}
	render := func(w io.Writer) error { return writeHTML(w, res) }
	switch f {
	case cgi.JSON:
		render = func(w io.Writer) error { return writeJSON(w, res) }
	case cgi.Text:
		render = func(w io.Writer) error { return writeText(w, res) }
	default:
		if g.cfg.templates != "" && g.site().Own(res.page()) {
			g.ownResultPage(w, r, res)
			return
		}
		cgi.SetHeader(w.Header(), "Content-Security-Policy", resultCSP)
	}
	if err := cgi.RespondStream(w, cgi.StatusOK, f, render); err != nil {
		// A template fault is a server fault: cgi.Recover answers 500 when
		// nothing was sent yet (a page under cgi.StreamHold never is).
		panic(err)
	}
}

// isindexFallback takes a GET whose only field is "isindex" (besides
// _charset_) as an ISINDEX search for its words: the prompt page's form
// without script.
func (g *gateway) isindexFallback(form *cgi.Form) error {
	if form.Kind != decoder.Form || form.Method == "POST" || len(form.Files) > 0 {
		return nil
	}
	var value *string
	for i, fd := range form.Fields {
		switch {
		case fd.Name == "_charset_":
		case fd.Name == isindexField && value == nil:
			value = &form.Fields[i].Value
		default:
			return nil
		}
	}
	if value == nil {
		return nil
	}
	return g.takeWords(form, *value)
}

// takeWords makes form an ISINDEX search of the words of a search box's
// value (Empty when it has none).
func (g *gateway) takeWords(form *cgi.Form, value string) error {
	words := strings.Fields(value)
	if max := g.maxKeywords(); len(words) > max {
		return &decoder.LimitError{Limit: "keywords", Max: max}
	}
	form.Kind, form.Keywords, form.Fields = decoder.ISINDEX, words, []decoder.Field{}
	if len(words) == 0 {
		form.Kind = decoder.Empty
	}
	return nil
}

// maxKeywords is the most words a search may have: the decoder's limit.
func (g *gateway) maxKeywords() int { return g.cfg.cgi.Decoder.Limits.Effective().Keywords }

// Content-Security-Policy: the pages load nothing, the prompt runs only
// its own script (by hash, CSP 3 § 8.2), forms post only to the gateway.
const resultCSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

var promptCSP = lazy.Value[string]{New: func() string {
	h := sha256.Sum256([]byte(promptScript))
	return fmt.Sprintf("default-src 'none'; script-src 'sha256-%s'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		base64.StdEncoding.EncodeToString(h[:]))
}}
