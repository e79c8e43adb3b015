//go:build cgionly

package main

import (
	"io"
	"log"
)

// A cgionly build serves CGI and builds indexes only: -http and -fcgi need
// net/http, which this build leaves out to start faster.

// modesUsage is the usage line's modes in this build.
const modesUsage = "[-index DIR [-full] | -check-forms FILE]   (built with -tags cgionly: no -http or -fcgi)"

func serveHTTP(addr string, stdout io.Writer) int { return notBuiltIn("-http") }

func serveFCGI(env map[string]string, addr string, stdout io.Writer) int {
	return notBuiltIn("-fcgi")
}

// runExport is left out too: 120 KB of the binary (encoding/csv and the
// re-decoding) that no CGI request runs.
func runExport(env map[string]string, name string, args []string, stdout, stderr io.Writer) int {
	return notBuiltIn("export")
}

func notBuiltIn(flag string) int {
	log.Printf("cgigate: %s is not in this binary, built with -tags cgionly; build without that tag to serve HTTP or FastCGI or to export", flag)
	return 2
}

// exportUsage is empty: export is not in this build.
const exportUsage = ""

// deliverUsage is empty: `cgigate deliver` needs net/http (webhooks) and
// a PostgreSQL client, none of which belongs in a CGI process.
const deliverUsage = ""

func runDeliver(env map[string]string, args []string, stdout, stderr io.Writer) int {
	log.Printf("cgigate: deliver is not in this binary, built with -tags cgionly for cgi-bin; build without that tag to deliver records")
	return 2
}
