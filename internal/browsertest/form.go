package browsertest

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// SubmitForm loads pageURL in the tab ctx, types text into the element that
// the CSS selector field names (as key events, the way a person types),
// submits that element's form and waits for the page the form leads to. It
// returns that page's URL, as the browser requested it.
func SubmitForm(t testing.TB, ctx context.Context, pageURL, field, text string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	sel := chromedp.CSS(field)
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL), chromedp.SendKeys(sel, text)); err != nil {
		t.Fatalf("browsertest: typing %q into %s at %s: %v", text, field, pageURL, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Submit(sel))); err != nil {
		t.Fatalf("browsertest: submitting the form of %s at %s: %v", field, pageURL, err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatalf("browsertest: reading the location after submitting: %v", err)
	}
	return loc
}

// BodyText returns the text of the current page's body (for a JSON or
// text/plain response, the response itself).
func BodyText(t testing.TB, ctx context.Context) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatalf("browsertest: reading the page text: %v", err)
	}
	return s
}
