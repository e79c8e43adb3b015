//go:build cgionly

package main

import (
	"io"
	"log"
)

// A cgionly build serves CGI and builds indexes only: -http and -fcgi need
// net/http, which this build leaves out to start faster.

// modesUsage is the usage line's modes in this build.
const modesUsage = "[-index DIR | -check-forms FILE]   (built with -tags cgionly: no -http or -fcgi)"

func serveHTTP(addr string, stdout io.Writer) int { return notBuiltIn("-http") }

func serveFCGI(env map[string]string, addr string, stdout io.Writer) int {
	return notBuiltIn("-fcgi")
}

func notBuiltIn(flag string) int {
	log.Printf("cgigate: %s is not in this binary, built with -tags cgionly; build without that tag to serve HTTP or FastCGI", flag)
	return 2
}
