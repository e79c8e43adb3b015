// Command gocgi is the plain Go peer of the cgigate benchmarks: the usual
// way to write a CGI program in Go, net/http/cgi.Serve with a handler that
// reads r.FormValue. Same job as floor.c: decode the form fields "q" and
// "lang" of a GET and print them escaped, as HTML, or as JSON when the
// Accept header names application/json. It is deliberately minimal
// (html.EscapeString rather than html/template) so that what it costs
// beyond the C floor is net/http/cgi and the Go runtime.
package main

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/cgi"
	"os"
	"strings"
)

type field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func serve(w http.ResponseWriter, r *http.Request) {
	var fields []field
	for _, name := range []string{"q", "lang"} {
		if vs, ok := r.URL.Query()[name]; ok {
			fields = append(fields, field{name, vs[0]})
		}
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(struct {
			Kind   string  `json:"kind"`
			Fields []field `json:"fields"`
		}{"form", fields})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>form</title></head>\n"+
		"<body>\n<h1>form</h1>\n<table class=\"fields\"><tr><th>name</th><th>value</th></tr>\n")
	for _, f := range fields {
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td></tr>\n", f.Name, html.EscapeString(f.Value))
	}
	fmt.Fprint(w, "</table>\n</body></html>\n")
}

func main() {
	if err := cgi.Serve(http.HandlerFunc(serve)); err != nil {
		fmt.Fprintln(os.Stderr, "gocgi:", err)
		os.Exit(1)
	}
}
