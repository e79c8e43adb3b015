//go:build !cgionly

package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	gocgi "net/http/cgi"
	"net/http/fcgi"
	"os"
	"time"

	"github.com/cgigate/cgigate/cgi/cgihttp"
)

// modesUsage is the usage line's modes in this build.
const modesUsage = "[-http ADDR | -fcgi ADDR | -index DIR]"

// serveHTTP runs this binary as a CGI child for every request, so the real
// CGI path (environment, stdin, the Status header) is what answers.
func serveHTTP(addr string, stdout io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	inherit := []string{"TMPDIR"}
	for _, s := range settings {
		inherit = append(inherit, s.name)
	}
	h := &gocgi.Handler{Path: exe, Root: "/", InheritEnv: inherit}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	fmt.Fprintf(stdout, "cgigate: open http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("cgigate: %v", srv.Serve(ln))
	return 1
}

// serveFCGI serves the same handler over FastCGI. The configuration is
// read once; a bad one stops the server before it listens.
func serveFCGI(env map[string]string, addr string, stdout io.Writer) int {
	cfg, err := loadConfig(env)
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Printf("cgigate: %v", err)
		return 1
	}
	fmt.Fprintf(stdout, "cgigate: FastCGI on %s\n", ln.Addr())
	log.Printf("cgigate: %v", fcgi.Serve(ln, cgihttp.Handler(newGateway(cfg, nil))))
	return 1
}
