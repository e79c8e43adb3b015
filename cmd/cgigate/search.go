package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/url"
	"strconv"
	"strings"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/search"
)

// searchConfig is the settings of the search besides CGIGATE_INDEX_DIR.
// The zero value is the defaults.
type searchConfig struct {
	textCharset string // CGIGATE_INDEX_CHARSET
	baseURL     string // CGIGATE_INDEX_URL
	field       string // CGIGATE_SEARCH_FIELD; "": defaultSearchField
	pageSize    int    // CGIGATE_PAGE_SIZE; 0: search.DefaultPageSize
}

// The search box's fields besides the query's: the page wanted, and the
// charset the browser fills in (HTML § 4.10.21.4).
const (
	defaultSearchField = "q"
	pageField          = "page"
	charsetField       = "_charset_"
	maxPage            = 1 << 30
)

func (c searchConfig) searchField() string {
	if c.field == "" {
		return defaultSearchField
	}
	return c.field
}

// folder is the documents in dir as the settings say to read them; what
// the site's owner must know goes to the log (Apache's error log).
func (c searchConfig) folder(dir string) *search.Folder {
	return &search.Folder{Dir: dir, BaseURL: c.baseURL, TextCharset: c.textCharset, Log: log.Printf}
}

// searchBox takes a GET whose only fields are the search box's (the
// query field, page, _charset_) as a search of the query's words, when an
// index is configured: a site's own search form. It gives the page asked
// for (1 without one); a page that is not a number from 1 is a 400.
func (g *gateway) searchBox(form *cgi.Form) (int, error) {
	if g.cfg.indexDir == "" || form.Kind != decoder.Form || form.Method == "POST" || len(form.Files) > 0 {
		return 1, nil
	}
	var value, page *string
	for i, fd := range form.Fields {
		switch {
		case fd.Name == charsetField:
		case fd.Name == g.cfg.search.searchField() && value == nil:
			value = &form.Fields[i].Value
		case fd.Name == pageField && page == nil:
			page = &form.Fields[i].Value
		default:
			return 1, nil
		}
	}
	if value == nil {
		return 1, nil
	}
	n := 1
	if page != nil {
		var err error
		if n, err = strconv.Atoi(*page); err != nil || n < 1 || n > maxPage || strings.TrimLeft(*page, "0123456789") != "" {
			return 0, &cgi.Error{Status: cgi.StatusBadRequest, Op: "search", Msg: fmt.Sprintf("page %q: want a whole number from 1 to %d", *page, maxPage)}
		}
	}
	return n, g.takeWords(form, *value)
}

// search answers an ISINDEX search: page of the results of keywords.
func (g *gateway) search(res *result, keywords []string, page int) error {
	q, err := search.ParseQuery(keywords, g.maxKeywords())
	if err != nil {
		return err
	}
	p, err := g.cfg.search.folder(g.cfg.indexDir).Search(q, page, g.cfg.search.pageSize)
	if err != nil {
		return &cgi.Error{Status: cgi.StatusInternalServerError, Op: "search", Err: errors.Join(cgi.ErrServer, err)}
	}
	res.Results, res.searched = p.Results, true
	res.Total, res.Page, res.Pages = p.Total, p.Page, p.Pages
	res.Warnings = append(res.Warnings, p.Warnings...)
	nav := &searchNav{Field: g.cfg.search.searchField(), Query: strings.Join(keywords, " "), Linked: g.cfg.search.baseURL != ""}
	size := g.cfg.search.pageSize
	if size == 0 {
		size = search.DefaultPageSize
	}
	nav.Start = (p.Page-1)*size + 1
	link := func(n int) string {
		return "?" + url.QueryEscape(nav.Field) + "=" + url.QueryEscape(nav.Query) + "&" + pageField + "=" + strconv.Itoa(n)
	}
	if p.Page > 1 && p.Pages > 0 {
		nav.Prev = link(min(p.Page-1, p.Pages))
	}
	if p.Page < p.Pages {
		nav.Next = link(p.Page + 1)
	}
	res.nav = nav
	return nil
}

// searchNav is what the results page needs besides the results: the
// search box, whether titles link, and the pager.
type searchNav struct {
	Field, Query string
	Linked       bool   // CGIGATE_INDEX_URL is set
	Start        int    // the number of the page's first result
	Prev, Next   string // links to the pages before and after; "" when none
}

// Nav is the search's navigation, for the template: empty when no search.
func (r result) Nav() *searchNav {
	if r.nav == nil {
		return &searchNav{}
	}
	return r.nav
}

// searchSectionHTML is the results of a search on the result page: a
// search box holding the query, the total, each result's title (a link
// when the documents' URL is configured) and its snippet with every word
// of the query marked, and the pager; no scores.
const searchSectionHTML = `<h2>Results</h2>
<form class="search" method="get" action="" accept-charset="utf-8"><input type="hidden" name="_charset_"><label>Search: <input name="{{.Nav.Field}}" value="{{.Nav.Query}}"></label> <button type="submit">Search</button></form>
<p class="total">{{.Total}} {{if eq .Total 1}}document matches{{else}}documents match{{end}}{{if .Pages}}, page {{.Page}} of {{.Pages}}{{end}}.</p>
{{if not .Nav.Linked}}<p class="note">Links to the documents are not configured (CGIGATE_INDEX_URL).</p>
{{end}}{{if .Results}}<ol class="results" start="{{.Nav.Start}}">{{range .Results}}<li>{{if $.Nav.Linked}}<a href="{{.URL}}">{{.Title}}</a>{{else}}<span class="title">{{.Title}}</span>{{end}}<p>{{range .Parts}}{{if .Mark}}<mark>{{.Text}}</mark>{{else}}{{.Text}}{{end}}{{end}}</p></li>{{end}}</ol>
{{else}}<p class="results">Nothing matches your search. Try fewer or other words.</p>
{{end}}{{if or .Nav.Prev .Nav.Next}}<nav class="pager">{{with .Nav.Prev}}<a rel="prev" href="{{.}}">Previous</a>{{end}} {{with .Nav.Next}}<a rel="next" href="{{.}}">Next</a>{{end}}</nav>
{{end}}`

// setIndexCharset applies CGIGATE_INDEX_CHARSET.
func setIndexCharset(c *config, v string) error {
	_, err := charset.Lookup(v)
	c.search.textCharset = v
	return err
}

// setIndexURL applies CGIGATE_INDEX_URL.
func setIndexURL(c *config, v string) error {
	u, err := url.Parse(v)
	if err != nil || u.RawQuery != "" || u.Fragment != "" || !(u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/") && !strings.HasPrefix(u.Path, "//") || (u.Scheme == "http" || u.Scheme == "https") && u.Host != "") {
		return errors.New("want a path from the root (/docs/) or an http(s) URL, without query or fragment")
	}
	c.search.baseURL = v
	return nil
}

// setSearchField applies CGIGATE_SEARCH_FIELD.
func setSearchField(c *config, v string) error {
	if v == pageField || v == charsetField || v == isindexField || strings.ContainsAny(v, "&=+#%") {
		return errors.New("want a field name other than page, _charset_ and isindex, without & = + # %")
	}
	c.search.field = v
	return nil
}

// setPageSize applies CGIGATE_PAGE_SIZE.
func setPageSize(c *config, v string) error {
	n, err := parsePositive(v)
	if err == nil && n > 1000 {
		err = errors.New("want at most 1000")
	}
	c.search.pageSize = n
	return err
}

// runIndex is "cgigate -index DIR [-full]": it builds or updates the
// index with the settings of env, as the CGI reads them, and says what it
// did on stdout, the documents it skipped on stderr.
func runIndex(env map[string]string, dir string, full bool, stdout, stderr io.Writer) int {
	cfg, err := loadConfig(env)
	if err != nil {
		fmt.Fprintf(stderr, "cgigate: %v\n", err)
		return 1
	}
	f := cfg.search.folder(dir)
	build := f.Build
	if full {
		build = f.Rebuild
	}
	st, err := build()
	for _, w := range st.Warnings {
		fmt.Fprintf(stderr, "cgigate: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cgigate: %v\n", err)
		return 1
	}
	switch {
	case st.Full:
		fmt.Fprintf(stdout, "cgigate: indexed %d documents, %d terms, %d bytes in %s\n", st.Docs, st.Terms, st.Bytes, st.Path)
	case st.Segment == "":
		fmt.Fprintf(stdout, "cgigate: %s is up to date: %d documents in %d segments\n", st.Path, st.Live, st.Segments)
	default:
		fmt.Fprintf(stdout, "cgigate: updated %s: read %d documents, removed %d; %d documents in %d segments\n", st.Path, st.Read, st.Removed, st.Live, st.Segments)
	}
	return 0
}

// searchResult is a search result as the renderings show it.
type searchResult = search.Result
