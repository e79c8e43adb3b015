package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"slices"
	"time"

	"github.com/cgigate/cgigate/internal/apache"
)

// goHost is Go's own CGI host, net/http/cgi, serving the gateway in this
// process: every request runs the gateway binary as a CGI child, as
// Apache's mod_cgid does, with the same SCRIPT_NAME and settings.
type goHost struct {
	srv  *http.Server
	done chan struct{}
	err  error // set before done is closed
}

// startGoHost listens on addr and serves gateway at scriptPath, the files
// of docs (when not empty) at /, and a 404 for every other path. env holds
// the gateway's settings (gatewayEnv), as Apache's SetEnv lines do.
func startGoHost(gateway, docs, addr string, env map[string]string, stderr io.Writer) (*goHost, error) {
	vars := []string{}
	for k, v := range env {
		vars = append(vars, k+"="+v)
	}
	slices.Sort(vars)
	h := &cgi.Handler{
		Path:       gateway,
		Root:       scriptPath,
		Env:        vars,
		InheritEnv: []string{"TMPDIR"}, // where multipart files are spooled
		Stderr:     stderr,
	}
	mux := http.NewServeMux()
	mux.Handle(scriptPath, h)
	mux.Handle(scriptPath+"/", h) // PATH_INFO, as under ScriptAlias
	if docs != "" {
		root, err := os.OpenRoot(docs) // no symbolic link leads out of it
		if err != nil {
			return nil, err
		}
		mux.Handle("/", http.FileServerFS(root.FS()))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, &AddrError{addr, err}
	}
	g := &goHost{
		srv: &http.Server{
			Handler:           mux,
			ReadHeaderTimeout: 10 * time.Second,
			ErrorLog:          log.New(stderr, "serve: ", 0),
		},
		done: make(chan struct{}),
	}
	go func() {
		if err := g.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			g.err = err
		}
		close(g.done)
	}()
	return g, nil
}

// Stop closes the listener and waits up to apache.StopBound for the
// requests in flight (each a CGI child) to finish.
func (g *goHost) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), apache.StopBound)
	defer cancel()
	if err := g.srv.Shutdown(ctx); err != nil {
		g.srv.Close()
		return fmt.Errorf("Go's CGI host: %w", err)
	}
	<-g.done
	return nil
}

func (g *goHost) Done() <-chan struct{} { return g.done }
func (g *goHost) Err() error            { return g.err }
