package integration

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/cgigate/cgigate/internal/browsertest"
)

// TestSearchInABrowser types a query into the prompt page as a person
// would, pages through the results with the pager, searches again from the
// results page's own box, and clicks a result: Chromium must land on the
// document, served by Apache from CGIGATE_INDEX_URL.
func TestSearchInABrowser(t *testing.T) {
	s := startDocsGateway(t)
	tab := browsertest.Start(t)
	click := func(t *testing.T, sel string) string {
		t.Helper()
		run(t, tab, "clicking "+sel, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS(sel))))
		return run(t, tab, "reading the location", chromedp.Location())
	}
	text := func(t *testing.T) string { return browsertest.BodyText(t, tab) }

	// Submitting the form skips its submit event (HTMLFormElement.submit):
	// the no-script fallback's isindex field, which is the same search.
	loc := browsertest.SubmitForm(t, tab, s.URL+gatewayPath, "#q", "printing")
	if !strings.HasSuffix(loc, gatewayPath+"?isindex=printing") || !strings.Contains(text(t), "5 documents match, page 1 of 3.") {
		t.Fatalf("after typing a query: %s\n%s", loc, text(t))
	}
	t.Run("the pager's next link goes to page 2, keeping the query", func(t *testing.T) {
		loc := click(t, `a[rel="next"]`)
		if !strings.HasSuffix(loc, "?q=printing&page=2") || !strings.Contains(text(t), "page 2 of 3.") {
			t.Errorf("%s\n%s", loc, text(t))
		}
	})
	t.Run("the results page's own box searches again", func(t *testing.T) {
		// The box holds the query, the caret before it.
		loc := browsertest.SubmitForm(t, tab, s.URL+gatewayPath+"?printing", `form.search input[name="q"]`, "cotton ")
		body := text(t)
		if !strings.Contains(loc, "q=cotton+printing") || !strings.Contains(body, "1 document matches") {
			t.Errorf("%s\n%s", loc, body)
		}
		marks := run(t, tab, "counting the marks", chromedp.Evaluate[int](`document.querySelectorAll("ol.results mark").length`))
		if marks < 2 {
			t.Errorf("%d words marked", marks)
		}
	})
	t.Run("clicking a result opens the document", func(t *testing.T) {
		loc := click(t, "ol.results a")
		if !strings.HasSuffix(loc, "/docs/sub/100%25%20cotton.txt") || strings.TrimSpace(text(t)) != strings.TrimSpace(servedDocs["sub/100% cotton.txt"]) {
			t.Errorf("%s\n%s", loc, text(t))
		}
	})
}
