// Command testcount reads the output of `go test -json` on stdin and
// prints what `go test` prints without -json: each package's ok or FAIL
// line, and the output of every test that failed. It ends with the tests
// that skipped, each with its reason, and the closing line
//
//	N passed, N failed, N skipped
//
// It exits 1 when a test or a package failed, and, under CI=true, when a
// test skipped because a tool or file it needs is missing (its message
// begins with missing.Prefix): CI installs everything the tests use,
// so such a skip means a test that checks nothing there.
//
// .ci/run uses it as
//
//	go test -json -count=1 ./... | go run ./internal/testcount
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/cgigate/cgigate/internal/missing"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
}

// skip is one skipped test and what it said.
type skip struct {
	pkg, test, reason string
	missing           bool
}

// tally is what has been read so far.
type tally struct {
	passed, failed int
	skips          []skip
	// failedPkgs are packages that failed with no failed test of their
	// own: a build failure, TestMain, a panic outside a test.
	failedPkgs []string
	// output holds each running test's output until it ends, as go test
	// shows it only for a failure.
	output map[[2]string][]string
	// testFailed is the packages with a failed test.
	testFailed map[string]bool
}

func newTally() *tally {
	return &tally{output: map[[2]string][]string{}, testFailed: map[string]bool{}}
}

// read reads events from r, writing the plain output to w as it goes.
// A line that is no JSON event (go vet's, a build's) is written as it is.
func (t *tally) read(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(w, sc.Text())
			continue
		}
		t.add(e, w)
	}
	return sc.Err()
}

func (t *tally) add(e event, w io.Writer) {
	key := [2]string{e.Package, e.Test}
	switch {
	case e.Action == "build-output":
		io.WriteString(w, e.Output)
	case e.Test == "" && e.Action == "output":
		// The package's own lines: ok, FAIL, and what TestMain or a
		// panic printed; go test -v's bare PASS is left out.
		if e.Output != "PASS\n" {
			io.WriteString(w, e.Output)
		}
	case e.Test == "" && e.Action == "fail":
		if !t.testFailed[e.Package] {
			t.failedPkgs = append(t.failedPkgs, e.Package)
		}
	case e.Test == "":
	case e.Action == "output":
		t.output[key] = append(t.output[key], e.Output)
	case e.Action == "pass":
		t.passed++
		delete(t.output, key)
	case e.Action == "fail":
		t.failed++
		t.testFailed[e.Package] = true
		for _, l := range t.output[key] {
			if !strings.HasPrefix(l, "=== ") {
				io.WriteString(w, l)
			}
		}
		delete(t.output, key)
	case e.Action == "skip":
		reason := skipReason(t.output[key])
		t.skips = append(t.skips, skip{e.Package, e.Test, reason, strings.Contains(reason, missing.Prefix)})
		delete(t.output, key)
	}
}

// skipReason is a skipped test's own message: its output less go test's
// === and --- lines, the file:line prefix kept.
func skipReason(lines []string) string {
	var kept []string
	for _, l := range lines {
		s := strings.TrimSpace(l)
		if s == "" || strings.HasPrefix(s, "=== ") || strings.HasPrefix(s, "--- ") {
			continue
		}
		kept = append(kept, s)
	}
	return strings.Join(kept, " ")
}

// report writes the skips and the closing line, and says whether the run
// fails: a failed test or package, or, in CI, a skip for something missing.
func (t *tally) report(w io.Writer, ci bool) (ok bool) {
	forMissing := 0
	if len(t.skips) > 0 {
		slices.SortFunc(t.skips, func(a, b skip) int { return strings.Compare(a.pkg+" "+a.test, b.pkg+" "+b.test) })
		fmt.Fprintf(w, "\n%d skipped:\n", len(t.skips))
		for _, s := range t.skips {
			fmt.Fprintf(w, "SKIP %s %s: %s\n", s.pkg, s.test, s.reason)
			if s.missing {
				forMissing++
			}
		}
	}
	for _, p := range t.failedPkgs {
		fmt.Fprintf(w, "FAIL %s (no test of it failed: the build, TestMain or a panic did)\n", p)
	}
	fmt.Fprintf(w, "\n%d skipped, %d of them for a missing tool or file\n", len(t.skips), forMissing)
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", t.passed, t.failed+len(t.failedPkgs), len(t.skips))
	ok = t.failed == 0 && len(t.failedPkgs) == 0
	if ci && forMissing > 0 {
		fmt.Fprintf(w, "testcount: %d tests skipped for a missing tool or file under CI=true: .ci/run must install what they need\n", forMissing)
		ok = false
	}
	return ok
}

func main() {
	t := newTally()
	// Unbuffered, so that a CI log shows each package as it ends.
	err := t.read(os.Stdin, os.Stdout)
	ok := t.report(os.Stdout, missing.InCI(os.Getenv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcount:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}
