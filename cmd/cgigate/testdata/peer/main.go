// Command peer is the smallest Go CGI program, the yardstick the gateway's
// start-up is compared with in BenchmarkCGIStartup.
package main

import (
	"net/http"
	"net/http/cgi"
)

func main() {
	cgi.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	}))
}
