package main

import (
	"fmt"
	"html/template"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/internal/pages"
)

// prompt answers the ISINDEX prompt: the site's prompt.html, or the
// built-in one. Its script is allowed by its hash, so a site's prompt
// that keeps a script writes {{.Script}} as it is.
func (g *gateway) prompt(w cgi.ResponseWriter, r *cgi.Request) {
	b, err := g.site().Render(pages.Prompt, pages.PromptData{
		Page: pages.Page{Site: g.cfg.siteName, Title: "Search"}, Script: template.JS(promptScript),
	})
	if err != nil {
		g.fail(w, r, fmt.Errorf("%w: %w", cgi.ErrServer, err))
		return
	}
	cgi.SetHeader(w.Header(), "Content-Security-Policy", promptCSP.Get())
	cgi.Respond(w, cgi.StatusOK, cgi.HTML, b)
}

// page is the site template that may replace res's built-in page.
func (res result) page() string {
	if res.Kind == "isindex" {
		return pages.Results
	}
	return pages.Submitted
}

// ownResultPage answers res with the site's results.html or
// submitted.html, rendered whole before a byte is sent: a template that
// fails is a 500 with its reason in the error log. (The built-in page is
// streamed instead, as a large form's page may be large.)
func (g *gateway) ownResultPage(w cgi.ResponseWriter, r *cgi.Request, res result) {
	b, err := g.site().Render(res.page(), pages.ResultData{Page: pages.Page{Site: g.cfg.siteName, Title: res.Heading()}, Result: res})
	if err != nil {
		g.fail(w, r, fmt.Errorf("%w: %w", cgi.ErrServer, err))
		return
	}
	cgi.SetHeader(w.Header(), "Content-Security-Policy", resultCSP)
	cgi.Respond(w, cgi.StatusOK, cgi.HTML, b)
}
