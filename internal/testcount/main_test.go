package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// goTest runs go test with args in the fixture module and returns its
// output; the fixture's tests fail on purpose, so its exit status is not
// checked.
func goTest(t *testing.T, args ...string) []byte {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			missing.SkipOrFail(t, "no go command to run the fixture's tests with")
		}
	}
	cmd := exec.Command(goBin, append([]string{"test", "-count=1"}, args...)...)
	cmd.Dir = filepath.Join("testdata", "fixture")
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "CI=")
	out, _ := cmd.CombinedOutput()
	if len(out) == 0 {
		t.Fatalf("go test %q printed nothing", args)
	}
	return out
}

// count counts go test -v's own verdict lines: the independent truth the
// tally is compared with.
func count(verbose []byte, verdict string) int {
	return len(regexp.MustCompile(`(?m)^\s*--- `+verdict+`: `).FindAll(verbose, -1))
}

func TestTheCountsAreGoTestVerbosesOwn(t *testing.T) {
	verbose := goTest(t, "-v", "./...")
	tl := newTally()
	var out bytes.Buffer
	if err := tl.read(bytes.NewReader(goTest(t, "-json", "./...")), &out); err != nil {
		t.Fatal(err)
	}
	ok := tl.report(&out, false)
	brokenLine := regexp.MustCompile(`(?m)^FAIL\s+fixture/broken \[build failed\]`)
	if !brokenLine.Match(verbose) {
		t.Fatalf("go test -v did not report the broken package as go test does:\n%s", verbose)
	}
	wantPassed, wantFailed, wantSkipped := count(verbose, "PASS"), count(verbose, "FAIL")+1, count(verbose, "SKIP")
	if wantPassed != 2 || wantFailed != 4 || wantSkipped != 3 {
		t.Fatalf("the fixture changed: go test -v gives %d passed, %d failed (the broken package too), %d skipped\n%s", wantPassed, wantFailed, wantSkipped, verbose)
	}
	closing := regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed, (\d+) skipped$`).FindSubmatch(out.Bytes())
	want := []string{itoa(wantPassed), itoa(wantFailed), itoa(wantSkipped)}
	if closing == nil || string(closing[1]) != want[0] || string(closing[2]) != want[1] || string(closing[3]) != want[2] {
		t.Errorf("closing line %q; want %s passed, %s failed, %s skipped\n%s", closing, want[0], want[1], want[2], out.String())
	}
	if ok {
		t.Errorf("a run with failed tests and a broken package is reported ok")
	}
	for _, s := range []string{
		"the answer was wrong", "the subtest broke", "--- FAIL: TestFails",
		"undefinedFunction", "FAIL\tfixture/broken", "FAIL\tfixture/mixed",
		"SKIP fixture/mixed TestSubtests/skips_for_a_missing_file: ",
		"SKIP fixture/mixed TestSkipsByChoice: mixed_test.go:16: -short: this one is long",
		"3 skipped, 2 of them for a missing tool or file",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the output lacks %q:\n%s", s, out.String())
		}
	}
	for _, s := range []string{"=== RUN", "--- PASS", "\nPASS\n"} {
		if strings.Contains(out.String(), s) {
			t.Errorf("the output has %q, which plain go test does not print:\n%s", s, out.String())
		}
	}
}

func TestASkipForAMissingToolFailsOnlyUnderCI(t *testing.T) {
	tests := []struct {
		name, run string
		ci, ok    bool
	}{
		{"a skip by choice passes under CI", "TestPasses|TestSkipsByChoice", true, true},
		{"a skip for a missing tool passes outside CI", "TestPasses|TestSkipsForAMissingTool", false, true},
		{"a skip for a missing tool fails under CI", "TestPasses|TestSkipsForAMissingTool", true, false},
		{"a subtest's skip for a missing file fails under CI", "TestSubtests/(passes|skips)", true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tl := newTally()
			var out bytes.Buffer
			if err := tl.read(bytes.NewReader(goTest(t, "-json", "-run", tc.run, "./mixed")), &out); err != nil {
				t.Fatal(err)
			}
			if ok := tl.report(&out, tc.ci); ok != tc.ok {
				t.Errorf("report(ci=%v) = %v, want %v\n%s", tc.ci, ok, tc.ok, out.String())
			}
		})
	}
}

// TestTheFixtureSpellsTheMissingPrefixAsSkipOrFailDoes keeps the fixture's
// literal skip messages in step with the prefix missing.SkipOrFail writes.
func TestTheFixtureSpellsTheMissingPrefixAsSkipOrFailDoes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "fixture", "mixed", "mixed_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `t.Skip("`+missing.Prefix); n != 2 {
		t.Errorf("the fixture has %d skips beginning with %q, want 2", n, missing.Prefix)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCIRunsREADMEsTestCommandThroughTheCounter keeps .ci/run's test step
// the README's command with -json and this counter, as README says.
func TestCIRunsREADMEsTestCommandThroughTheCounter(t *testing.T) {
	readme, run := projectFile(t, "README.md"), projectFile(t, ".ci", "run")
	if !strings.Contains(string(readme), "\ngo vet ./... && go test -count=1 ./...\n") {
		t.Error("README.md no longer shows the test command go vet ./... && go test -count=1 ./...")
	}
	for _, line := range []string{"\ngo vet ./...\n", "\ngo test -json -count=1 ./... | go run ./internal/testcount\n"} {
		if !strings.Contains(string(run), line) {
			t.Errorf(".ci/run lacks the line %q", strings.TrimSpace(line))
		}
	}
	if !strings.Contains(string(run), "set -euo pipefail") {
		t.Error(".ci/run does not set pipefail, so go test's own failure would be lost in the pipe")
	}
}

// ciPackages finds the Debian packages .ci/run installs: its packages=(...)
// list and what it adds with packages+=(...).
var ciPackages = regexp.MustCompile(`(?m)^\s*(?:command -v \S+ .*\|\| )?packages\+?=\(([^)]*)\)`)

// TestREADMENamesEveryPackageCIInstalls keeps README's account of what the
// tests need in step with .ci/run, where a package is added for a test: a
// newcomer installs from the README.
func TestREADMENamesEveryPackageCIInstalls(t *testing.T) {
	readme, run := projectFile(t, "README.md"), projectFile(t, ".ci", "run")
	var pkgs []string
	for _, m := range ciPackages.FindAllStringSubmatch(string(run), -1) {
		pkgs = append(pkgs, strings.Fields(m[1])...)
	}
	if len(pkgs) < 5 {
		t.Fatalf(".ci/run: found the packages %q, want its whole list", pkgs)
	}
	for _, p := range pkgs {
		if !strings.Contains(string(readme), "`"+p+"`") {
			t.Errorf(".ci/run installs %s, which README.md does not name", p)
		}
	}
}

// projectFile reads a file of the project, its path from the module root.
func projectFile(t *testing.T, path ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{"..", ".."}, path...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
