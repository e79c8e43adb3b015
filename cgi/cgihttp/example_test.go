package cgihttp_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/cgi/cgihttp"
)

func ExampleHandler() {
	gw := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cgi.Respond(w, cgi.StatusOK, cgi.Text, []byte("query "+r.RawQuery+"\n"))
	})
	// Any net/http server serves it; httptest's recorder here.
	w := httptest.NewRecorder()
	cgihttp.Handler(gw).ServeHTTP(w, httptest.NewRequest("GET", "/cgi-bin/cgigate?a=1", nil))
	fmt.Print(w.Code, " ", w.Header().Get("Content-Type"), "\n", w.Body.String())
	// Output:
	// 200 text/plain; charset=utf-8
	// query a=1
}

func ExampleRequest() {
	hr := httptest.NewRequest("GET", "/?q=caf%C3%A9", nil)
	hr.RemoteAddr = "192.0.2.7:40000"
	r := cgihttp.Request(hr)
	fmt.Println(r.Method, r.RawQuery, r.RemoteAddr)
	// Output: GET q=caf%C3%A9 192.0.2.7
}
