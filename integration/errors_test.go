package integration

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
)

// Limits of the server in TestErrorStatusesThroughApache: the gateway's own
// body limit, and Apache's LimitRequestBody in front of it, above it.
const (
	gatewayMaxBody = 10000
	apacheMaxBody  = 1 << 20
)

// TestErrorStatusesThroughApache checks that the gateway's refusals reach
// the client through Apache with their status and JSON body, and that
// Apache's own LimitRequestBody refuses a body before the gateway runs.
func TestErrorStatusesThroughApache(t *testing.T) {
	form := "application/x-www-form-urlencoded"
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			s := startGateway(t, apachetest.Options{MPM: mpm, LimitRequestBody: apacheMaxBody,
				Env: map[string]string{"CGIGATE_MAX_BODY": "10000"}})

			t.Run("a body over CGIGATE_MAX_BODY is 413 from the gateway", func(t *testing.T) {
				body := "a=" + strings.Repeat("x", gatewayMaxBody)
				wantError(t, s, send(t, s, "POST", gatewayPath, form, []byte(body), "application/json"), http.StatusRequestEntityTooLarge)
			})
			t.Run("a body over CGIGATE_MAX_BODY and larger than a pipe is 413 from the gateway too", func(t *testing.T) {
				body := "a=" + strings.Repeat("x", apacheMaxBody/2)
				wantError(t, s, send(t, s, "POST", gatewayPath, form, []byte(body), "application/json"), http.StatusRequestEntityTooLarge)
			})
			t.Run("a chunked body growing over CGIGATE_MAX_BODY is 413 from the gateway", func(t *testing.T) {
				r := s.DoRaw(t, chunked(gatewayPath, form, "a=", strings.Repeat("x", gatewayMaxBody), strings.Repeat("y", 5000)))
				wantError(t, s, reply(r), http.StatusRequestEntityTooLarge)
			})
			t.Run("a body at CGIGATE_MAX_BODY is accepted", func(t *testing.T) {
				body := "a=" + strings.Repeat("x", gatewayMaxBody-2)
				r := postJSON(t, s, gatewayPath, form, []byte(body))
				if len(r.Fields) != 1 || len(r.Fields[0].Value) != gatewayMaxBody-2 {
					t.Errorf("fields %d, want one of %d bytes", len(r.Fields), gatewayMaxBody-2)
				}
			})
			t.Run("a body over Apache's LimitRequestBody is Apache's own 413", func(t *testing.T) {
				body := "a=" + strings.Repeat("x", apacheMaxBody)
				r := send(t, s, "POST", gatewayPath, form, []byte(body), "application/json")
				if r.Status != http.StatusRequestEntityTooLarge {
					t.Fatalf("status %d, want 413; body %s", r.Status, r.Body)
				}
				if !strings.Contains(r.Header.Get("Content-Type"), "text/html") || !bytes.Contains(r.Body, []byte("Request Entity Too Large")) {
					t.Errorf("want Apache's HTML 413 page (the gateway never ran), got %s %s", r.Header.Get("Content-Type"), r.Body)
				}
			})
			t.Run("a Content-Type that is no form encoding is 415", func(t *testing.T) {
				r := send(t, s, "POST", gatewayPath, "application/xml", []byte("<a>1</a>"), "application/json")
				wantError(t, s, r, http.StatusUnsupportedMediaType)
			})
			t.Run("an unknown _charset_ is 400 naming it", func(t *testing.T) {
				r := send(t, s, "GET", gatewayPath+"?_charset_=x-no-such-charset&q=a", "", nil, "application/json")
				wantError(t, s, r, http.StatusBadRequest, "x-no-such-charset")
			})
			t.Run("an unknown charset on the Content-Type is 400 naming it", func(t *testing.T) {
				r := send(t, s, "POST", gatewayPath, form+"; charset=klingon-8", []byte("q=a"), "application/json")
				wantError(t, s, r, http.StatusBadRequest, "klingon-8")
			})
			t.Run("an unknown charset hint is 400 naming it", func(t *testing.T) {
				r := send(t, s, "GET", gatewayPath+"?[x-martian]:abc", "", nil, "application/json")
				wantError(t, s, r, http.StatusBadRequest, "x-martian")
			})
			t.Run("a multipart body cut before its closing boundary is 400", func(t *testing.T) {
				var body bytes.Buffer
				mw := multipart.NewWriter(&body)
				mw.WriteField("a", "1")
				mw.WriteField("b", strings.Repeat("y", 3000))
				mw.Close()
				cut := body.Bytes()[:body.Len()-1500]
				r := send(t, s, "POST", gatewayPath, mw.FormDataContentType(), cut, "application/json")
				wantError(t, s, r, http.StatusBadRequest)
			})
			t.Run("an error is HTML for a browser, with the same status", func(t *testing.T) {
				r := send(t, s, "POST", gatewayPath, "application/xml", []byte("<a/>"), "text/html")
				if r.Status != http.StatusUnsupportedMediaType || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
					t.Errorf("status %d Content-Type %q, want 415 text/html", r.Status, r.Header.Get("Content-Type"))
				}
			})
		})
	}
}
