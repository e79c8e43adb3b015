package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Load is one wrk run against one URL.
type Load struct {
	URL         string
	Connections int
	// Threads defaults to min(2, Connections): the load generator shares
	// the machine with Apache and the CGI programs.
	Threads  int
	Duration time.Duration
	// Header lines such as "Accept: text/html".
	Header []string
	// Script, when not empty, is a wrk Lua script file (-s), such as one
	// that sends a set of paths in turn (WrkScript).
	Script string
}

// Sample is what one wrk run measured.
type Sample struct {
	Requests int           // completed requests
	Seconds  float64       // wall time of the run
	RPS      float64       // Requests/sec as wrk prints it
	Mean     time.Duration // mean latency
	P99      time.Duration // 99th percentile latency (wrk --latency)
	Non2xx   int           // "Non-2xx or 3xx responses"
	Errors   int           // socket errors of all kinds
	// CPU is the CPU time per completed request of the target's
	// long-lived backend (cgigate -fcgi, PHP-FPM's master and workers)
	// over the run, from /proc; 0 for a target without one.
	CPU time.Duration
}

// Wrk runs Debian's wrk for l and parses its report. The run is bounded:
// wrk's own -d, a 10 s per-request timeout, and ctx.
func Wrk(ctx context.Context, l Load) (Sample, error) {
	threads := l.Threads
	if threads <= 0 {
		threads = min(2, l.Connections)
	}
	args := []string{"-t", strconv.Itoa(threads), "-c", strconv.Itoa(l.Connections),
		"-d", strconv.Itoa(wrkSeconds(l.Duration)) + "s", "--timeout", "10s", "--latency"}
	for _, h := range l.Header {
		args = append(args, "-H", h)
	}
	if l.Script != "" {
		args = append(args, "-s", l.Script)
	}
	args = append(args, l.URL)
	ctx, cancel := context.WithTimeout(ctx, time.Duration(wrkSeconds(l.Duration))*time.Second+30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "wrk", args...).CombinedOutput()
	if err != nil {
		return Sample{}, fmt.Errorf("bench: wrk %s: %v\n%.500s", strings.Join(args, " "), err, out)
	}
	s, err := ParseWrk(string(out))
	if err != nil {
		return s, fmt.Errorf("bench: wrk %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return s, nil
}

// wrkSeconds rounds d up to whole seconds, at least one: wrk's -d takes
// no fractions.
func wrkSeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

// ErrWrkOutput is wrapped by ParseWrk's errors.
var ErrWrkOutput = errors.New("unexpected wrk output")

// ParseWrk reads the report wrk 4 prints with --latency.
func ParseWrk(out string) (Sample, error) {
	var s Sample
	var haveRPS, haveMean, haveP99, haveCount bool
	inDist := false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		var err error
		switch {
		case f[0] == "Latency" && len(f) >= 2 && f[1] != "Distribution":
			s.Mean, err = ParseWrkDuration(f[1])
			haveMean = err == nil
		case len(f) >= 2 && f[0] == "Latency" && f[1] == "Distribution":
			inDist = true
		case inDist && len(f) == 2 && f[0] == "99%":
			s.P99, err = ParseWrkDuration(f[1])
			haveP99 = err == nil
		case len(f) >= 5 && f[1] == "requests" && f[2] == "in":
			inDist = false
			if s.Requests, err = strconv.Atoi(f[0]); err == nil {
				var d time.Duration
				d, err = ParseWrkDuration(strings.TrimSuffix(f[3], ","))
				s.Seconds = d.Seconds()
				haveCount = err == nil
			}
		case f[0] == "Requests/sec:" && len(f) == 2:
			s.RPS, err = strconv.ParseFloat(f[1], 64)
			haveRPS = err == nil
		case len(f) == 5 && f[0] == "Non-2xx":
			s.Non2xx, err = strconv.Atoi(f[4])
		case f[0] == "Socket" && len(f) >= 4:
			// Socket errors: connect 0, read 0, write 0, timeout 0
			for i := 2; i+1 < len(f); i += 2 {
				n, e := strconv.Atoi(strings.TrimSuffix(f[i+1], ","))
				if e != nil {
					err = e
					break
				}
				s.Errors += n
			}
		}
		if err != nil {
			return s, fmt.Errorf("%w: line %q: %v", ErrWrkOutput, sc.Text(), err)
		}
	}
	if !haveRPS || !haveMean || !haveP99 || !haveCount {
		return s, fmt.Errorf("%w: missing Requests/sec, latency or the 99%% line", ErrWrkOutput)
	}
	return s, nil
}

// ParseWrkDuration reads wrk's durations: "812.00us", "5.83ms", "1.02s",
// "2.00m" (wrk prints minutes as "m" and hours as "h").
func ParseWrkDuration(s string) (time.Duration, error) {
	units := []struct {
		suffix string
		unit   time.Duration
	}{{"us", time.Microsecond}, {"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return 0, fmt.Errorf("%w: duration %q", ErrWrkOutput, s)
			}
			return time.Duration(v * float64(u.unit)), nil
		}
	}
	return 0, fmt.Errorf("%w: duration %q", ErrWrkOutput, s)
}
