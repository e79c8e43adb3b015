package main

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
)

// pagedDocs are 25 documents holding "paper", d1.txt to d25.txt, so that
// ties are broken by natural order, and one holding markup.
func pagedDocs(t *testing.T) string {
	docs := map[string]string{"markup.txt": "Markup\nBold <b>paper & ink</b> here"}
	for i := 1; i <= 25; i++ {
		docs[fmt.Sprintf("d%d.txt", i)] = fmt.Sprintf("Document %d\nprinted on paper", i)
	}
	return makeIndex(t, docs)
}

func urlsOf(r result) []string {
	var u []string
	for _, h := range r.Results {
		u = append(u, h.URL)
	}
	return u
}

func TestSearchBoxAndPages(t *testing.T) {
	dir := pagedDocs(t)
	idx := func(kv ...string) []string { return append([]string{"CGIGATE_INDEX_DIR", dir}, kv...) }
	asJSON := []string{acceptJSON, "application/json"}
	for _, tc := range []struct {
		name, query        string
		env                []string
		total, page, pages int
		first, last        string
		results            int
	}{
		{"ISINDEX gives the first page of ten, ties in natural order", "printed", nil, 25, 1, 3, "d1.txt", "d10.txt", 10},
		{"a q box is a search", "q=printed", nil, 25, 1, 3, "d1.txt", "d10.txt", 10},
		{"page 2 goes on where page 1 ended", "q=printed&page=2", nil, 25, 2, 3, "d11.txt", "d20.txt", 10},
		{"the last page holds the rest", "q=printed&page=3", nil, 25, 3, 3, "d21.txt", "d25.txt", 5},
		{"a page past the end is empty, with the total", "q=printed&page=4", nil, 25, 4, 3, "", "", 0},
		{"_charset_ may come with the box", "_charset_=UTF-8&q=printed", nil, 25, 1, 3, "d1.txt", "d10.txt", 10},
		{"CGIGATE_PAGE_SIZE sets the page's size", "q=printed&page=2", []string{"CGIGATE_PAGE_SIZE", "20"}, 25, 2, 2, "d21.txt", "d25.txt", 5},
		{"CGIGATE_SEARCH_FIELD names the box's field", "words=printed", []string{"CGIGATE_SEARCH_FIELD", "words"}, 25, 1, 3, "d1.txt", "d10.txt", 10},
		{"nothing found is page 1 of 0", "q=zzyzx", nil, 0, 1, 0, "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := get(t, tc.query, append(idx(tc.env...), asJSON...)...)
			r := jsonResult(t, a.body)
			u := urlsOf(r)
			if r.Kind != "isindex" || r.Total != tc.total || r.Page != tc.page || r.Pages != tc.pages || len(u) != tc.results ||
				len(u) > 0 && (u[0] != tc.first || u[len(u)-1] != tc.last) {
				t.Errorf("kind %s total %d page %d of %d: %q", r.Kind, r.Total, r.Page, r.Pages, u)
			}
			for _, k := range []string{`"total"`, `"page"`, `"pages"`} {
				if !strings.Contains(a.body, k) {
					t.Errorf("no %s in %s", k, a.body)
				}
			}
		})
	}
	for _, tc := range []struct{ name, query string }{
		{"a page of letters", "q=paper&page=two"},
		{"page 0", "q=paper&page=0"},
		{"a negative page", "q=paper&page=-1"},
		{"a signed page", "q=paper&page=%2B2"},
		{"an empty page", "q=paper&page="},
		{"a page beyond 2^30", "q=paper&page=99999999999999999999"},
	} {
		t.Run(tc.name+" is a 400", func(t *testing.T) {
			a := get(t, tc.query, append(idx(), asJSON...)...)
			if msg, _ := jsonError(t, a.body); a.status != 400 || !strings.Contains(msg, "page") {
				t.Errorf("status %d %q", a.status, msg)
			}
		})
	}
	t.Run("without an index, a q box stays a form", func(t *testing.T) {
		r := jsonResult(t, get(t, "q=paper&page=2", asJSON...).body)
		if r.Kind != "form" || len(r.Fields) != 2 {
			t.Errorf("%+v", r)
		}
	})
	t.Run("a q box with another field stays a form", func(t *testing.T) {
		r := jsonResult(t, get(t, "q=paper&x=1", append(idx(), asJSON...)...).body)
		if r.Kind != "form" || len(r.Results) != 0 {
			t.Errorf("%+v", r)
		}
	})
	t.Run("the keywords of a box are its words as received", func(t *testing.T) {
		r := jsonResult(t, get(t, "q=%22printed+on%22+-zz", append(idx(), asJSON...)...).body)
		if strings.Join(r.Keywords, "|") != `"printed|on"|-zz` || r.Total != 25 {
			t.Errorf("keywords %q total %d", r.Keywords, r.Total)
		}
	})
	t.Run("the HTML page has a box holding the query, the total, and pager links that keep the query", func(t *testing.T) {
		a := get(t, "q=printed+%22on+paper%22&page=2", idx()...)
		for _, want := range []string{
			`<input name="q" value="printed &#34;on paper&#34;">`,
			`25 documents match, page 2 of 3.`,
			`<a rel="prev" href="?q=printed&#43;%22on&#43;paper%22&amp;page=1">`,
			`<a rel="next" href="?q=printed&#43;%22on&#43;paper%22&amp;page=3">`,
			`<ol class="results" start="11">`,
		} {
			if !strings.Contains(a.body, want) {
				t.Errorf("no %s in\n%s", want, a.body)
			}
		}
		// Outside the stylesheet, whose sizes (1.125rem) are not scores.
		body := regexp.MustCompile(`(?s)<style>.*?</style>`).ReplaceAllString(a.body, "")
		if regexp.MustCompile(`\d\.\d{3}`).MatchString(body) || strings.Contains(body, "<small>") {
			t.Errorf("a score on the page:\n%s", a.body)
		}
	})
	t.Run("following the pager's links walks every result once", func(t *testing.T) {
		seen := map[string]bool{}
		q := "q=printed"
		for n := 0; q != ""; n++ {
			if n > 5 {
				t.Fatal("the pager does not end")
			}
			a := get(t, q, idx("CGIGATE_INDEX_URL", "/docs/")...)
			for _, m := range regexp.MustCompile(`<a href="/docs/([^"]+)">`).FindAllStringSubmatch(a.body, -1) {
				if seen[m[1]] {
					t.Errorf("%s twice", m[1])
				}
				seen[m[1]] = true
			}
			q = ""
			if m := regexp.MustCompile(`<a rel="next" href="\?([^"]+)">`).FindStringSubmatch(a.body); m != nil {
				q = html.UnescapeString(m[1])
			}
		}
		if len(seen) != 25 {
			t.Errorf("%d results seen: %v", len(seen), seen)
		}
	})
	t.Run("matched words are marked in HTML, the snippet escaped around them", func(t *testing.T) {
		a := get(t, "q=PAPER+ink", idx()...)
		if !strings.Contains(a.body, `Bold &lt;b&gt;<mark>paper</mark> &amp; <mark>ink</mark>&lt;/b&gt; here`) {
			t.Errorf("body:\n%s", a.body)
		}
		r := jsonResult(t, get(t, "q=PAPER+ink", append(idx(), asJSON...)...).body)
		if len(r.Results) != 1 || r.Results[0].Snippet != "Markup Bold <b>paper & ink</b> here" ||
			fmt.Sprint(r.Results[0].Highlights) != "[[15 20] [23 26]]" {
			t.Errorf("results %+v", r.Results)
		}
	})
	t.Run("CGIGATE_INDEX_URL makes each link its base and the escaped path", func(t *testing.T) {
		for _, base := range []string{"/docs", "/docs/", "https://example.org/docs"} {
			r := jsonResult(t, get(t, "q=markup", append(idx("CGIGATE_INDEX_URL", base), asJSON...)...).body)
			want := strings.TrimSuffix(base, "/") + "/markup.txt"
			if u := urlsOf(r); len(u) != 1 || u[0] != want {
				t.Errorf("%s: %q; want %s", base, u, want)
			}
		}
	})
	t.Run("a CGIGATE_INDEX_URL that is no path or http(s) URL is a 500 naming it", func(t *testing.T) {
		for _, base := range []string{"docs/", "javascript:alert(1)", "//evil.example/", "/docs/?x=1"} {
			a := get(t, "q=markup", append(idx("CGIGATE_INDEX_URL", base), asJSON...)...)
			if a.status != 500 || !strings.Contains(a.stderr, "CGIGATE_INDEX_URL") {
				t.Errorf("%s: status %d stderr %q", base, a.status, a.stderr)
			}
		}
	})
}

func TestQueryLanguageThroughTheGateway(t *testing.T) {
	dir := makeIndex(t, map[string]string{
		"offset.txt": "Offset printing\nWe do offset printing.",
		"apart.txt":  "Printing\nPrinting by offset machines.",
		"kappan.txt": "活版印刷\n活版印刷と印刷サービス",
	})
	for _, tc := range []struct{ name, query, want string }{
		{"an ISINDEX phrase", "%22offset+printing%22", "offset.txt"},
		{"a box's phrase", "q=%22offset+printing%22", "offset.txt"},
		{"ISINDEX exclusion", "printing+-machines", "offset.txt"},
		{"ISINDEX OR", "machines+OR+%E6%B4%BB%E7%89%88", "kappan.txt apart.txt"},
		{"a full-width space in a box", "q=%E5%8D%B0%E5%88%B7%E3%80%80%E3%82%B5%E3%83%BC%E3%83%93%E3%82%B9", "kappan.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := jsonResult(t, get(t, tc.query, "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json").body)
			if got := strings.Join(urlsOf(r), " "); got != tc.want {
				t.Errorf("%q; want %q", got, tc.want)
			}
		})
	}
}
