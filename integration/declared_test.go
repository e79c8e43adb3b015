package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"

	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/browsertest"
)

// siteForms is the CGIGATE_FORMS file of the site the browser tests
// below visit: two Japanese forms in legacy charsets that redirect to a
// static page, a Japanese form in UTF-8 and an English one that thank the
// visitor on a page of the gateway's.
const siteForms = `forms:
  toiawase-sjis: &toiawase
    title: お問い合わせ
    charset: shift_jis
    lang: ja
    fields:
      name:    {required: true, max: 50, label: お名前, message: お名前を入力してください。}
      topic:   {kind: choice, choices: [注文, サポート, その他], label: ご用件}
      message: {required: true, max: 2000, multiline: true, label: メッセージ}
      file:    {kind: file, max: 100000, label: 添付ファイル}
    honeypot: url
    redirect: /thanks.html
    record: true
  toiawase-eucjp:
    <<: *toiawase
    charset: euc-jp
  kansou:
    title: ご感想
    lang: ja
    fields:
      name:    {label: お名前}
      rating:  {kind: number, min: 1, max: 5, required: true, label: 評価 (1〜5)}
      comment: {multiline: true, label: ご感想}
    record: true
  contact:
    title: Contact us
    fields:
      name:    {required: true, max: 100, label: Your name}
      email:   {required: true, kind: email, label: Your e-mail address}
      topic:   {kind: choice, choices: [order, support, other], label: Topic}
      message: {required: true, multiline: true, label: Message}
      agree:   {kind: checkbox, required: true, label: I agree to be answered by e-mail}
    honeypot: website
    record: true
`

// ownFormPage is a site's own copy of a declared form, in the form's
// charset and without _charset_: the declared charset alone tells the
// gateway how to read it (and 印刷 in EUC-JP, sniffed, reads as EUC-KR).
const ownFormPage = `<!doctype html>
<html lang=ja><head><meta charset=%[1]s><title>toiawase</title></head>
<body>
<form method=post enctype=multipart/form-data action="/cgi-bin/cgigate/%[2]s">
<input id=name name=name>
<select id=topic name=topic><option value="">-</option><option>注文</option><option>サポート</option><option>その他</option></select>
<textarea id=message name=message></textarea>
<input id=file type=file name=file>
<input name=url style="display:none">
<input id=send type=submit>
</form>
</body></html>
`

// crossSitePage is a page of another origin that posts to the site's form.
const crossSitePage = `<!doctype html>
<html><head><meta charset=utf-8><title>elsewhere</title></head>
<body>
<form method=post action="%s/cgi-bin/cgigate/toiawase-sjis">
<input id=name name=name><input name=message value="spam"><input id=send type=submit>
</form>
</body></html>
`

const staticThanks = `<!doctype html><html><head><meta charset=utf-8><title>Thank you (static)</title></head><body><h1>ありがとうございました</h1></body></html>`

// formSite is Apache with the gateway, the forms declared, a record file,
// the site's own form pages and a static thank-you page.
type formSite struct {
	*apachetest.Server
	record string
}

func startFormSite(t *testing.T) formSite {
	t.Helper()
	dir := apachetest.Dir(t)
	forms := filepath.Join(dir, "forms.yaml")
	if err := os.WriteFile(forms, []byte(siteForms), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"thanks.html": []byte(staticThanks)}
	for _, c := range []struct {
		label, form string
		enc         encoding.Encoding
	}{{"Shift_JIS", "toiawase-sjis", japanese.ShiftJIS}, {"EUC-JP", "toiawase-eucjp", japanese.EUCJP}} {
		b, err := c.enc.NewEncoder().Bytes(fmt.Appendf(nil, ownFormPage, c.label, c.form))
		if err != nil {
			t.Fatal(err)
		}
		files[c.form+".html"] = b
	}
	record := recordPath(t)
	s := startGateway(t, apachetest.Options{Files: files, Env: map[string]string{
		"CGIGATE_FORMS": forms, "CGIGATE_RECORD": record, "CGIGATE_SITE_NAME": "山田書店 Yamada Books",
	}})
	return formSite{s, record}
}

// records is the record file's lines, decoded.
func (s formSite) records(t *testing.T) []formRecord {
	t.Helper()
	b, err := os.ReadFile(s.record)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []formRecord
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var r formRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("record line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

type formRecord struct {
	Form    string  `json:"form"`
	Charset string  `json:"charset"`
	Fields  []field `json:"fields"`
	Files   []file  `json:"files"`
}

func (r formRecord) value(name string) string {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return "(absent)"
}

// evaluate reads a value from the tab's page.
func evaluate[T any](t *testing.T, tab context.Context, js string) T {
	t.Helper()
	return run(t, tab, "evaluating "+js, chromedp.Evaluate[T](js))
}

// TestBrowserFillsDeclaredFormsThroughApache has Chromium fill a site's own
// Shift_JIS and EUC-JP copies of declared forms (Japanese text, a choice, a
// file), submit them to the gateway through Apache, and follow the 303 to
// the static thank-you page Apache serves; the record must hold what was
// typed, decoded by the declared charset. Then a missing required field
// comes back with its message and the other values kept, and a POST from
// another origin is refused.
func TestBrowserFillsDeclaredFormsThroughApache(t *testing.T) {
	s := startFormSite(t)
	tab := browsertest.Start(t)
	upload := filepath.Join(t.TempDir(), "見積書.txt")
	content := "印刷の見積もり\n"
	if err := os.WriteFile(upload, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	typedName, typedMessage, chosen := "山田 花子", "印刷と検索の見積もりをお願いします。ｶﾀｶﾅも。", "サポート"

	for _, c := range []struct{ form, charset string }{{"toiawase-sjis", "shift_jis"}, {"toiawase-eucjp", "euc-jp"}} {
		t.Run("a "+c.charset+" form typed into arrives as typed and the browser lands on the static thank-you page", func(t *testing.T) {
			before := len(s.records(t))
			run(t, tab, "filling the form", chromedp.Steps(
				chromedp.Navigate(s.URL+"/"+c.form+".html"),
				chromedp.SendKeys(chromedp.CSS("#name"), typedName),
				chromedp.SetValue(chromedp.CSS("#topic"), chosen),
				chromedp.SendKeys(chromedp.CSS("#message"), typedMessage),
				chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{upload})))
			run(t, tab, "submitting", chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS("#send"))))
			if loc := run(t, tab, "reading the location", chromedp.Location()); loc != s.URL+"/thanks.html" {
				t.Fatalf("the browser is at %s; want %s/thanks.html\n%s", loc, s.URL, browsertest.BodyText(t, tab))
			}
			if title := evaluate[string](t, tab, "document.title"); title != "Thank you (static)" {
				t.Errorf("the page is %q", title)
			}
			recs := s.records(t)
			if len(recs) != before+1 {
				t.Fatalf("%d record lines; want %d", len(recs), before+1)
			}
			r := recs[len(recs)-1]
			if r.Form != c.form || r.Charset != c.charset || r.value("name") != typedName || r.value("topic") != chosen ||
				r.value("message") != typedMessage || r.value("_charset_") != "(absent)" {
				t.Errorf("the record holds %+v", r)
			}
			if len(r.Files) != 1 || r.Files[0].Filename != "見積書.txt" || r.Files[0].Size != int64(len(content)) {
				t.Errorf("the record's files %+v", r.Files)
			}
		})
	}
	t.Run("the same bytes as JSON say the charset came from the form", func(t *testing.T) {
		name, _ := japanese.EUCJP.NewEncoder().String(typedName)
		message, _ := japanese.EUCJP.NewEncoder().String(typedMessage)
		body := "name=" + url.QueryEscape(name) + "&message=" + url.QueryEscape(message)
		req, _ := http.NewRequest("POST", s.URL+gatewayPath+"/toiawase-eucjp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		res := decodeResult(t, b)
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/thanks.html" || res.CharsetSource != "form" || res.Charset != "euc-jp" || res.Fields[0].Value != typedName {
			t.Errorf("status %d Location %q charset %s (%s) fields %v", resp.StatusCode, resp.Header.Get("Location"), res.Charset, res.CharsetSource, res.Fields)
		}
	})
	t.Run("a missing required field comes back with its message and the other values kept", func(t *testing.T) {
		before := len(s.records(t))
		run(t, tab, "filling the gateway's own form page without a name", chromedp.Steps(
			chromedp.Navigate(s.URL+gatewayPath+"/toiawase-sjis"),
			chromedp.SetValue(chromedp.CSS("#f-topic"), chosen),
			chromedp.SendKeys(chromedp.CSS("#f-message"), typedMessage)))
		run(t, tab, "submitting", chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS("button[type=submit]"))))
		problem := evaluate[string](t, tab, `document.querySelector("#p-name")?.textContent ?? ""`)
		message := evaluate[string](t, tab, `document.querySelector("#f-message").value`)
		topic := evaluate[string](t, tab, `document.querySelector("#f-topic").value`)
		if problem != "お名前を入力してください。" || message != typedMessage || topic != chosen {
			t.Errorf("problem %q, message %q, topic %q", problem, message, topic)
		}
		if cs := evaluate[string](t, tab, "document.characterSet"); cs != "Shift_JIS" {
			t.Errorf("the page is in %s", cs)
		}
		if n := len(s.records(t)); n != before {
			t.Errorf("a submission with a problem was recorded (%d lines, was %d)", n, before)
		}
	})
	t.Run("a POST from another origin is refused 403 and not recorded", func(t *testing.T) {
		other := apachetest.Start(t, apachetest.Options{Files: map[string][]byte{"post.html": fmt.Appendf(nil, crossSitePage, s.URL)}})
		before := len(s.records(t))
		run(t, tab, "posting from the other origin", chromedp.Steps(
			chromedp.Navigate(other.URL+"/post.html"),
			chromedp.SendKeys(chromedp.CSS("#name"), typedName)))
		run(t, tab, "submitting", chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS("#send"))))
		if h1 := evaluate[string](t, tab, `document.querySelector("h1").textContent`); h1 != "Sent from another site" {
			t.Errorf("the page says %q", h1)
		}
		if n := len(s.records(t)); n != before {
			t.Errorf("a cross-site submission was recorded")
		}
		if errLog := s.ErrorLog(); !strings.Contains(errLog, `cross-site submission refused: Origin "`+other.URL+`"`) {
			t.Errorf("Apache's error log does not say why:\n%s", tail(errLog))
		}
	})
}

// shoot saves the tab's page at 1280 and 390 pixels wide (a desktop and a
// phone) as artifacts/forms/NAME-WIDTH.png at the project root, for a
// person to look at.
func shoot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	dir := filepath.Join("..", "artifacts", "forms")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int64{1280, 390} {
		opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
		if w < 600 {
			opts = append(opts, chromedp.EmulateMobile)
		}
		run(t, tab, "setting the width", chromedp.EmulateViewport(w, 800, opts...))
		png := run(t, tab, "taking a screenshot", chromedp.FullScreenshot(100))
		p := filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, w))
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", p)
	}
	run(t, tab, "restoring the viewport", chromedp.EmulateReset())
}

// TestBrowserScreenshotsOfEveryPage takes every page a visitor meets, in
// Japanese and in English, at a desktop's and a phone's width, and checks
// what each says in its heading.
func TestBrowserScreenshotsOfEveryPage(t *testing.T) {
	s := startFormSite(t)
	tab := browsertest.Start(t)
	submit := void(chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS("button[type=submit]"))))
	pages := []struct {
		name, h1 string
		steps    []chromedp.Action[chromedp.Void]
	}{
		{"prompt", "Search", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath)}},
		{"results-ja", "Search results", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "?%E5%8D%B0%E5%88%B7+gateway")}},
		{"submitted-ja", "Your submission was received", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "?" + url.Values{"お名前": {"山田 花子"}, "ご感想": {"とても読みやすい本でした。また利用します。"}}.Encode())}},
		{"submitted-en", "Your submission was received", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "?name=Ada+Lovelace&comment=A+very+readable+book%2C+thank+you.")}},
		{"form-ja", "お問い合わせ", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "/toiawase-sjis")}},
		{"form-ja-problems", "お問い合わせ", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "/toiawase-eucjp"),
			chromedp.SendKeys(chromedp.CSS("#f-message"), "印刷の見積もりをお願いします。"), submit}},
		{"form-en", "Contact us", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "/contact")}},
		{"form-en-problems", "Contact us", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "/contact"),
			chromedp.SendKeys(chromedp.CSS("#f-name"), "Ada"), chromedp.SendKeys(chromedp.CSS("#f-email"), "ada at example"), submit}},
		{"thanks-ja", "ご感想", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "/kansou"),
			chromedp.SendKeys(chromedp.CSS("#f-name"), "山田 花子"), chromedp.SendKeys(chromedp.CSS("#f-rating"), "5"),
			chromedp.SendKeys(chromedp.CSS("#f-comment"), "とても読みやすい本でした。"), submit}},
		{"thanks-en", "Contact us", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "/contact"),
			chromedp.SendKeys(chromedp.CSS("#f-name"), "Ada Lovelace"), chromedp.SendKeys(chromedp.CSS("#f-email"), "ada@example.org"),
			chromedp.SetValue(chromedp.CSS("#f-topic"), "support"), chromedp.SendKeys(chromedp.CSS("#f-message"), "Is the second edition in print?"),
			chromedp.Click(chromedp.CSS("#f-agree")), submit}},
		{"error-404", "Page not found", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "/nope")}},
		{"error-413", "Too much to send", []chromedp.Action[chromedp.Void]{chromedp.Navigate(s.URL + gatewayPath + "?" + strings.Repeat("a=1&", 1001))}},
	}
	for _, p := range pages {
		t.Run(p.name+" is headed "+p.h1, func(t *testing.T) {
			for _, a := range p.steps {
				run(t, tab, p.name, a)
			}
			if h1 := evaluate[string](t, tab, `document.querySelector("h1")?.textContent ?? ""`); h1 != p.h1 {
				t.Errorf("the page is headed %q; want %q\n%s", h1, p.h1, browsertest.BodyText(t, tab))
			}
			if w := evaluate[int](t, tab, "document.documentElement.scrollWidth"); w > 1280 {
				t.Errorf("the page is %d px wide", w)
			}
			shoot(t, tab, p.name)
		})
	}
}

// void is a, its value dropped, to stand among other steps.
func void[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, tg)
		return chromedp.Void{}, err
	}
}
