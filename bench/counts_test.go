package bench

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// The test binary doubles as the counted child: with touchPagesVar set it
// writes to that many fresh pages of its own mapping, sleeps sleepsVar
// times, and exits.
const (
	touchPagesVar = "BENCH_COUNTS_TOUCH_PAGES"
	sleepsVar     = "BENCH_COUNTS_SLEEPS"
)

func init() {
	pages, ok := os.LookupEnv(touchPagesVar)
	if !ok {
		return
	}
	n, _ := strconv.Atoi(pages)
	sleeps, _ := strconv.Atoi(os.Getenv(sleepsVar))
	if n > 0 {
		size := n * os.Getpagesize()
		m, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			os.Exit(3)
		}
		// Huge pages would make one fault of 512 pages.
		syscall.Madvise(m, syscall.MADV_NOHUGEPAGE)
		for i := 0; i < size; i += os.Getpagesize() {
			m[i] = 1
		}
	}
	for range sleeps {
		// Each sleep gives up the CPU: a voluntary context switch.
		ts := syscall.Timespec{Nsec: 200_000}
		syscall.Nanosleep(&ts, nil)
	}
	os.Exit(0)
}

// Page counts and sleeps that the counts of a child must show: the child
// touching extra pages and sleeping extra times against the same child
// doing neither.
const (
	extraPages  = 2000
	extraSleeps = 300
)

func countedChild(pages, sleeps int) ([]string, []string) {
	return []string{os.Args[0]}, append(os.Environ(),
		touchPagesVar+"="+strconv.Itoa(pages), sleepsVar+"="+strconv.Itoa(sleeps))
}

// checkExtra checks that more, the counts of the child that touched
// extraPages pages and slept extraSleeps times, exceeds base by them.
func checkExtra(t *testing.T, base, more Counts) {
	t.Helper()
	// The Go runtime's own faults vary by a few dozen from run to run.
	if d := more.Faults - base.Faults; d < extraPages*9/10 || d > extraPages*5/4 {
		t.Errorf("page faults %d against %d: %d more, want %d (-10%%, +25%%)", more.Faults, base.Faults, d, extraPages)
	}
	// Half of them at least: a busy machine adds and removes switches of
	// its own around the child's, tens of them, but not hundreds.
	if d := more.Switches - base.Switches; d < extraSleeps/2 {
		t.Errorf("context switches %d against %d: %d more, want at least %d", more.Switches, base.Switches, d, extraSleeps/2)
	}
	if base.Faults <= 0 || base.Switches < 0 {
		t.Errorf("counts of the idle child: %+v", base)
	}
}

func TestCountsAreRead(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		perf  bool
		count func(argv, env []string) (Counts, error)
	}{
		{"getrusage counts the pages a child touched and the times it slept", false,
			func(argv, env []string) (Counts, error) { return CountRuns(ctx, argv, env, "", 3, false) }},
		{"Exec reports the counts of its run beside the times", false,
			func(argv, env []string) (Counts, error) { t, err := Exec(ctx, argv, env); return t.Counts, err }},
		{"perf stat counts the pages a child touched and the times it slept", true,
			func(argv, env []string) (Counts, error) { return CountRuns(ctx, argv, env, "", 3, true) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.perf {
				if _, err := exec.LookPath("perf"); err != nil {
					missing.SkipOrFail(t, "perf (Debian package linux-perf)")
				}
				if !PerfWorks(ctx) {
					missing.SkipOrFail(t, "perf counting software events (kernel.perf_event_paranoid)")
				}
			}
			base, err := tt.count(countedChild(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			more, err := tt.count(countedChild(extraPages, extraSleeps))
			if err != nil {
				t.Fatal(err)
			}
			checkExtra(t, base, more)
		})
	}
}

func TestParsePerfStat(t *testing.T) {
	rep, err := os.ReadFile("testdata/perf-stat.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParsePerfStat(rep)
	if want := (Counts{Faults: 48, Switches: 5}); err != nil || got != want {
		t.Errorf("ParsePerfStat = %+v, %v; want %+v", got, err, want)
	}
	for _, tt := range []struct{ name, report string }{
		{"an event perf could not count is an error, not a zero", "<not supported>,,page-faults,0,100.00,,\n5,,context-switches,4262021,100.00,,\n"},
		{"a report without context switches is an error", "48,,page-faults,4262021,100.00,,\n"},
		{"a report that is not CSV is an error", " Performance counter stats for 'true':\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if c, err := ParsePerfStat([]byte(tt.report)); err == nil {
				t.Errorf("ParsePerfStat(%q) = %+v, no error", tt.report, c)
			}
		})
	}
}
