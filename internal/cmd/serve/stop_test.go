package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/cli/clitest"
	"github.com/cgigate/cgigate/internal/proctest"
)

func TestWatchParent(t *testing.T) {
	t.Run("a parent that exits ends the context, saying why", func(t *testing.T) {
		ppids := make(chan int, 2)
		ppids <- 4242 // at the start
		ppids <- 1    // adopted by init
		ctx, stop := watchParent(context.Background(), func() int { return <-ppids }, time.Millisecond)
		defer stop()
		<-ctx.Done()
		if cause := context.Cause(ctx); !errors.Is(cause, errParentGone) {
			t.Errorf("cause %v, want errParentGone", cause)
		}
	})
	t.Run("a parent still there keeps the context going", func(t *testing.T) {
		looked := make(chan struct{}, 100)
		ctx, stop := watchParent(context.Background(), func() int { looked <- struct{}{}; return 4242 }, time.Millisecond)
		for range 5 {
			<-looked
		}
		if ctx.Err() != nil {
			t.Errorf("the context ended (%v) while the parent was there", context.Cause(ctx))
		}
		stop()
		if cause := context.Cause(ctx); errors.Is(cause, errParentGone) {
			t.Errorf("stop gave the cause %v", cause)
		}
	})
	t.Run("a process whose parent is init has nothing to watch", func(t *testing.T) {
		calls := 0
		ctx, stop := watchParent(context.Background(), func() int { calls++; return 1 }, time.Millisecond)
		defer stop()
		if calls != 1 || ctx.Err() != nil {
			t.Errorf("getppid called %d times, context %v; want once and going", calls, ctx.Err())
		}
	})
}

func TestCommandLine(t *testing.T) {
	bin := serveBin(t)
	clitest.CheckCommandLine(t, "", bin, "serve", "usage: serve [", "-addr", "-gohost", "-docroot")
	t.Run("a -docroot that is no folder is a usage error naming it once", func(t *testing.T) {
		r := clitest.Run(t, "", nil, bin, "-docroot", "/nonexistent/site")
		if r.Code != 2 || strings.Count(r.Stderr, "/nonexistent/site") != 1 || r.Stdout != "" {
			t.Errorf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
		}
	})
}

// TestServeStopsEverythingItStarted runs serve as "go run" does, as the
// child of a process that waits for it, with -docroot; fetches a page of
// the site and the gateway; then stops it one way: SIGTERM or SIGHUP to
// serve, or the parent killed (SIGKILL: "go run" itself dies of SIGTERM
// and passes nothing on). Every process serve started, Apache's children
// too, must be gone, the address must no longer answer and the working
// folder must be removed.
func TestServeStopsEverythingItStarted(t *testing.T) {
	bin := serveBin(t)
	site, err := apache.TempDir("serve-site-") // readable by www-data, unlike t.TempDir
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(site) })
	const page = "<!doctype html><title>site</title><p>the site's own page"
	if err := os.WriteFile(filepath.Join(site, "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(site, "index.html"), 0o644)

	modes := []struct {
		name string
		args []string
	}{
		{"under Apache", nil},
		{"under Go's own CGI host", []string{"-gohost"}},
	}
	ways := []struct {
		name   string
		parent bool // kill the parent rather than signal serve
		sig    syscall.Signal
	}{
		{"SIGTERM to serve", false, syscall.SIGTERM},
		{"SIGHUP to serve", false, syscall.SIGHUP},
		{"its parent killed", true, syscall.SIGKILL},
	}
	for _, m := range modes {
		for _, w := range ways {
			t.Run(m.name+", "+w.name+", stops everything", func(t *testing.T) {
				if m.args == nil {
					apachetest.Binary(t) // skips (fails under CI=true) without Apache
				}
				port, err := apache.FreePort()
				if err != nil {
					t.Fatal(err)
				}
				addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
				// sh waits for serve and does not exec it, as go run.
				args := append([]string{"-c", `"$@"; exit $?`, "sh", bin, "-addr", addr, "-docroot", site}, m.args...)
				s := startServe(t, "sh", nil, args...)
				dirLine := s.waitFor(t, "serve: working folder ")
				dir, _, _ := strings.Cut(strings.TrimPrefix(dirLine, "serve: working folder "), " ")
				s.waitFor(t, "cgigate: open ")

				if status, body := get(t, "http://"+addr+"/", ""); status != http.StatusOK || body != page {
					t.Errorf("GET / from -docroot: %d %q, want 200 and the page", status, body)
				}
				if status, body := get(t, "http://"+addr+"/missing.html", ""); status != http.StatusNotFound {
					t.Errorf("GET /missing.html: %d %q, want 404", status, body)
				}
				if status, body := get(t, "http://"+addr+scriptPath+"?a+b", "application/json"); status != http.StatusOK || !strings.Contains(body, `"kind": "isindex"`) {
					t.Errorf("the gateway beside the site: %d %s", status, body)
				}

				family := proctest.Descendants(t, s.cmd.Process.Pid)
				var servePid int
				for _, p := range family {
					if proctest.Comm(p) == "serve" {
						servePid = p
					}
				}
				if servePid == 0 || m.args == nil && len(family) < 4 { // sh, serve, Apache and a child
					t.Fatalf("processes under sh: %v (serve %d)", family, servePid)
				}
				target := servePid
				if w.parent {
					target = s.cmd.Process.Pid
				}
				if err := syscall.Kill(target, w.sig); err != nil {
					t.Fatal(err)
				}
				go func() {
					for range s.lines {
					}
				}()
				if !w.parent {
					// sh ends when serve does, with its status.
					select {
					case err := <-s.done:
						if err != nil {
							t.Errorf("serve after %s: %v, want exit 0; stderr:\n%s", w.name, err, s.stderr.String())
						}
					case <-time.After(2 * apache.StopBound):
					}
				}
				// The parent gone, serve is another's child: wait, bounded,
				// for every process of the family to end.
				family = slices.DeleteFunc(family, func(p int) bool { return p == s.cmd.Process.Pid })
				if left := proctest.WaitExited(family, 2*apache.StopBound+time.Second); len(left) > 0 {
					for _, p := range left {
						syscall.Kill(p, syscall.SIGKILL)
					}
					t.Fatalf("still running after %s: %v; stderr:\n%s", w.name, left, s.stderr.String())
				}
				if _, err := os.Stat(dir); !os.IsNotExist(err) {
					t.Errorf("the working folder %s is still there (%v)", dir, err)
				}
				if c, err := net.Dial("tcp", addr); err == nil {
					c.Close()
					t.Errorf("%s still answers after %s", addr, w.name)
				}
			})
		}
	}
}
