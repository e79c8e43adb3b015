// Package browsertest drives Debian's headless Chromium from tests
// (through chromedp), so that what a real browser sends for an HTML form
// (WHATWG HTML 4.10.21, form submission; 4.10.21.8, URL-encoded form data)
// can be checked byte for byte rather than assumed.
//
// Tests skip when Chromium is absent, except under CI=true, where that is a
// failure: .ci/run installs Debian's chromium package.
package browsertest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/cgigate/cgigate/internal/apachetest"
)

// ErrNoChromium is returned by FindChromium when no Chromium is installed.
var ErrNoChromium = errors.New("browsertest: no Chromium found (set CHROMIUM_BIN, or install Debian's chromium)")

// Flags are the command-line switches Chromium is started with: headless,
// as root without the sandbox, and with every background connection off,
// since the machines this runs on have no network beyond loopback (Chromium
// would otherwise try Google's hosts at each start).
var Flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
}

// bound caps each browser step; a page that has not loaded by then fails
// the test as broken. It is not an assertion about speed.
const bound = 60 * time.Second

// FindChromium returns $CHROMIUM_BIN if set, else Debian's /usr/bin/chromium,
// else chromium or chromium-browser on PATH. The environment, PATH lookup and
// file test are passed in, so it reads no process state itself.
func FindChromium(getenv func(string) string, lookPath func(string) (string, error), exists func(string) bool) (string, error) {
	if p := getenv("CHROMIUM_BIN"); p != "" {
		if !exists(p) {
			return "", &os.PathError{Op: "browsertest: CHROMIUM_BIN", Path: p, Err: os.ErrNotExist}
		}
		return p, nil
	}
	if exists("/usr/bin/chromium") {
		return "/usr/bin/chromium", nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := lookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// Start starts a headless Chromium with a fresh user-data-dir for t and
// returns a context for one tab in it; t.Cleanup closes the browser and
// removes the folder. It skips (or fails under CI=true) when Chromium is
// absent.
func Start(t testing.TB) context.Context {
	t.Helper()
	bin, err := FindChromium(os.Getenv, exec.LookPath, func(p string) bool { _, err := os.Stat(p); return err == nil })
	if err != nil {
		apachetest.SkipOrFail(t, err.Error())
	}
	dir, err := os.MkdirTemp("", "browsertest-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(bin), chromedp.UserDataDir(dir)}
	for _, f := range Flags {
		opts = append(opts, chromedp.Flag(f[len("--"):], true))
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		// Chromium's children may still write in dir for a moment after
		// the browser exits; removing is retried for a bounded while.
		for i := 0; i < 50; i++ {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	// Start the browser now, so a broken install fails here, clearly. (The
	// first action must not run under a timeout: chromedp ties the
	// browser's life to the context of its first action.)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("browsertest: starting %s: %v", bin, err)
	}
	return ctx
}
