package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Init is one package's initialisation as GODEBUG=inittrace=1 reports it
// (runtime/proc.go doInit: "init PKG @START ms, CLOCK ms clock, BYTES
// bytes, ALLOCS allocs").
type Init struct {
	Package string
	Start   time.Duration // since the runtime started
	Clock   time.Duration
	Bytes   int64
	Allocs  int64
}

// ParseInitTrace reads the inittrace lines of out, ignoring other lines.
func ParseInitTrace(out []byte) ([]Init, error) {
	var inits []Init
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "init ")
		if !ok {
			continue
		}
		// PKG @0.011 ms, 0.012 ms clock, 0 bytes, 0 allocs
		f := strings.Fields(strings.ReplaceAll(rest, ",", ""))
		if len(f) != 10 || !strings.HasPrefix(f[1], "@") || f[2] != "ms" || f[4] != "ms" || f[5] != "clock" || f[7] != "bytes" || f[9] != "allocs" {
			return nil, fmt.Errorf("bench: inittrace line %q: unexpected form", line)
		}
		start, err1 := strconv.ParseFloat(f[1][1:], 64)
		clock, err2 := strconv.ParseFloat(f[3], 64)
		b, err3 := strconv.ParseInt(f[6], 10, 64)
		allocs, err4 := strconv.ParseInt(f[8], 10, 64)
		if err := firstErr(err1, err2, err3, err4); err != nil {
			return nil, fmt.Errorf("bench: inittrace line %q: %v", line, err)
		}
		inits = append(inits, Init{Package: f[0], Start: ms(start), Clock: ms(clock), Bytes: b, Allocs: allocs})
	}
	return inits, sc.Err()
}

func ms(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// InitSummary is the init cost of one program over several runs.
type InitSummary struct {
	Runs     int
	Packages int
	// Clock is the median over runs of the sum of every package's clock;
	// Bytes and Allocs are the same in every run (init is deterministic).
	Clock  time.Duration
	Bytes  int64
	Allocs int64
	// Main is the median over runs of when the last init ended: roughly
	// when main.main starts, measured from the runtime's start.
	Main time.Duration
	// Top lists packages by median clock, most costly first.
	Top []Init
}

// TraceInit runs argv runs times with env plus GODEBUG=inittrace=1 and
// summarises what its package initialisers cost. When ctx ends, the run
// under way is killed and ctx's error returned.
func TraceInit(ctx context.Context, argv, env []string, runs int) (InitSummary, error) {
	perPkg := map[string][]Init{}
	var order []string
	var clocks, mains []float64
	for i := 0; i < runs; i++ {
		if err := ctx.Err(); err != nil {
			return InitSummary{}, err
		}
		cmd := command(ctx, argv[0], argv[1:]...)
		cmd.Env = append(append([]string(nil), env...), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		null, err := os.Open(os.DevNull)
		if err != nil {
			return InitSummary{}, err
		}
		cmd.Stdin = null
		err = cmd.Run()
		null.Close()
		if err != nil {
			return InitSummary{}, fmt.Errorf("bench: %s: %v\n%s", argv[0], err, stderr.Bytes())
		}
		inits, err := ParseInitTrace(stderr.Bytes())
		if err != nil {
			return InitSummary{}, err
		}
		var sum, last time.Duration
		for _, in := range inits {
			if _, ok := perPkg[in.Package]; !ok {
				order = append(order, in.Package)
			}
			perPkg[in.Package] = append(perPkg[in.Package], in)
			sum += in.Clock
			last = max(last, in.Start+in.Clock)
		}
		clocks = append(clocks, float64(sum))
		mains = append(mains, float64(last))
	}
	s := InitSummary{Runs: runs, Packages: len(order), Clock: time.Duration(Median(clocks)), Main: time.Duration(Median(mains))}
	for _, p := range order {
		runs := perPkg[p]
		var c []float64
		for _, in := range runs {
			c = append(c, float64(in.Clock))
		}
		in := runs[0]
		in.Clock = time.Duration(Median(c))
		s.Bytes += in.Bytes
		s.Allocs += in.Allocs
		s.Top = append(s.Top, in)
	}
	slices.SortStableFunc(s.Top, func(a, b Init) int {
		if a.Clock != b.Clock {
			return int(b.Clock - a.Clock)
		}
		return int(b.Bytes - a.Bytes)
	})
	return s, nil
}

// FormatInit writes s with its n most costly packages as Markdown.
func FormatInit(w io.Writer, name string, s InitSummary, n int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d packages initialised; median over %d runs: %s of init clock in all, last init ends %s after the runtime starts; %d bytes in %d allocations\n\n",
		name, s.Packages, s.Runs, FormatDuration(s.Clock), FormatDuration(s.Main), s.Bytes, s.Allocs)
	if n > 0 {
		b.WriteString("| package | clock (median) | bytes | allocs |\n|---|---:|---:|---:|\n")
		for _, in := range s.Top[:min(n, len(s.Top))] {
			fmt.Fprintf(&b, "| %s | %s | %d | %d |\n", in.Package, FormatDuration(in.Clock), in.Bytes, in.Allocs)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// InitExtra returns the packages of s that base does not initialise (what
// a program pays at init beyond base, such as a plain net/http/cgi
// program), most costly first, and their summed median clock and bytes.
func InitExtra(s, base InitSummary) (extra []Init, clock time.Duration, bytes int64) {
	have := map[string]bool{}
	for _, in := range base.Top {
		have[in.Package] = true
	}
	for _, in := range s.Top {
		if !have[in.Package] {
			extra = append(extra, in)
			clock += in.Clock
			bytes += in.Bytes
		}
	}
	return extra, clock, bytes
}
