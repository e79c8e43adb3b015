package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Counts is what one process touched: on these virtual machines a page
// fault and a context switch each cost tens of microseconds, at a price
// that changes from machine to machine, while their number does not.
type Counts struct {
	Faults   int64 // page faults, minor and major
	Switches int64 // context switches, voluntary and involuntary
}

// Where counts come from: perf's software events when perf works here,
// else the child's getrusage (ru_minflt, ru_nvcsw + ru_nivcsw), which
// leaves out the few faults the kernel takes for the process before exec.
const (
	FromPerf   = "perf stat"
	FromRusage = "getrusage"
)

// rusageCounts reads the counts of an exited child.
func rusageCounts(ps *os.ProcessState) Counts {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return Counts{}
	}
	return Counts{Faults: ru.Minflt + ru.Majflt, Switches: ru.Nvcsw + ru.Nivcsw}
}

// perfEvents are the events read, in the order perf reports them.
var perfEvents = []string{"page-faults", "context-switches"}

// ParsePerfStat reads the report of `perf stat -x, -e
// page-faults,context-switches` (CSV: value, unit, event, ...). An event
// perf could not count ("<not supported>", "<not counted>") or a missing
// one is an error, never a zero.
func ParsePerfStat(report []byte) (Counts, error) {
	seen := map[string]int64{}
	for line := range strings.Lines(string(report)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) < 3 {
			return Counts{}, fmt.Errorf("bench: perf stat line %q: not value,unit,event", line)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return Counts{}, fmt.Errorf("bench: perf stat counted no %s: %q", f[2], f[0])
		}
		seen[f[2]] = n
	}
	for _, e := range perfEvents {
		if _, ok := seen[e]; !ok {
			return Counts{}, fmt.Errorf("bench: perf stat report has no %s", e)
		}
	}
	return Counts{Faults: seen["page-faults"], Switches: seen["context-switches"]}, nil
}

// PerfWorks reports whether perf counts software events for a child here
// (perf installed, perf_event_paranoid allowing it), by counting true(1).
func PerfWorks(ctx context.Context) bool {
	c, err := perfRun(ctx, []string{"true"}, nil, "")
	return err == nil && c.Faults > 0
}

// perfRun runs argv once under perf stat, with env and stdin (a file
// name; "" is /dev/null), and returns its counts.
func perfRun(ctx context.Context, argv, env []string, stdin string) (Counts, error) {
	dir, err := os.MkdirTemp("", "cgibench-perf")
	if err != nil {
		return Counts{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "stat.csv")
	args := append([]string{"stat", "-x,", "-o", out, "-e", strings.Join(perfEvents, ","), "--"}, argv...)
	if err := runOnce(command(ctx, "perf", args...), env, stdin); err != nil {
		return Counts{}, err
	}
	report, err := os.ReadFile(out)
	if err != nil {
		return Counts{}, err
	}
	return ParsePerfStat(report)
}

// runOnce runs cmd with env, stdin from the named file ("" is /dev/null)
// and stdout on /dev/null; an error carries the start of its stderr.
func runOnce(cmd *exec.Cmd, env []string, stdin string) error {
	closeAll, err := setStdio(cmd, env, stdin)
	if err != nil {
		return err
	}
	defer closeAll()
	return wrapRunError(cmd, cmd.Run())
}

// setStdio gives cmd (not started) env, stdin from the named file ("" is
// /dev/null), stdout on /dev/null and stderr in a buffer that
// wrapRunError reads; closeAll closes the files once cmd has run.
func setStdio(cmd *exec.Cmd, env []string, stdin string) (closeAll func(), err error) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	in := null
	if stdin != "" {
		if in, err = os.Open(stdin); err != nil {
			null.Close()
			return nil, err
		}
	}
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, null, &limitedBuffer{max: 4 << 10}
	return func() { in.Close(); null.Close() }, nil
}

// wrapRunError names the command of a failed run, with what it said.
func wrapRunError(cmd *exec.Cmd, err error) error {
	if err == nil {
		return nil
	}
	said := ""
	if b, ok := cmd.Stderr.(*limitedBuffer); ok {
		said = strings.TrimSpace(b.String())
	}
	return fmt.Errorf("bench: %s: %w %s", strings.Join(cmd.Args, " "), err, said)
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// CountRuns runs argv runs times with env and stdin (a file name,
// reopened for each run; "" is /dev/null) and returns the median counts
// per process, under perf stat when usePerf, else from getrusage.
func CountRuns(ctx context.Context, argv, env []string, stdin string, runs int, usePerf bool) (Counts, error) {
	var faults, switches []float64
	for range runs {
		var c Counts
		if usePerf {
			var err error
			if c, err = perfRun(ctx, argv, env, stdin); err != nil {
				return Counts{}, err
			}
		} else {
			cmd := command(ctx, argv[0], argv[1:]...)
			if err := runOnce(cmd, env, stdin); err != nil {
				return Counts{}, err
			}
			c = rusageCounts(cmd.ProcessState)
		}
		faults = append(faults, float64(c.Faults))
		switches = append(switches, float64(c.Switches))
	}
	return Counts{Faults: int64(Median(faults)), Switches: int64(Median(switches))}, nil
}

// Request is one kind of CGI request a process is counted answering.
type Request struct {
	Name  string
	Env   []string // the CGI environment
	Args  []string // the ISINDEX words Apache passes as arguments
	Stdin string   // a file holding the body, or ""
}

// SmallPost is the body of the small urlencoded POST counted: three
// fields, UTF-8 with accents, as a browser sends a short form.
const SmallPost = "q=caf%C3%A9+cr%C3%A8me&lang=fr&name=Jos%C3%A9"

// CountedRequests returns the requests whose counts per process the
// targets bound: a FORM GET with HTML out and with JSON out, an ISINDEX
// query over 100 documents with the index gateway builds of them (as
// README deploys a search), and a small urlencoded POST. It writes the
// documents, their index and the POST body into dir.
func CountedRequests(ctx context.Context, dir, gateway string) ([]Request, error) {
	docs := filepath.Join(dir, "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		return nil, err
	}
	if err := GenerateIndex(docs, 100, 1); err != nil {
		return nil, err
	}
	if err := runOnce(command(ctx, gateway, "-index", docs), os.Environ(), ""); err != nil {
		return nil, err
	}
	body := filepath.Join(dir, "post")
	if err := os.WriteFile(body, []byte(SmallPost), 0o644); err != nil {
		return nil, err
	}
	post := append(cgiEnv("POST", Gateway, "", "text/html"),
		"CONTENT_TYPE=application/x-www-form-urlencoded",
		"CONTENT_LENGTH="+strconv.Itoa(len(SmallPost)))
	return []Request{
		{Name: "FORM GET, HTML out", Env: CGIEnv(Gateway, Query, "text/html")},
		{Name: "FORM GET, JSON out", Env: CGIEnv(Gateway, Query, "application/json")},
		{Name: "ISINDEX query", Env: append(CGIEnv(Gateway, Needle+"+"+Hay, "text/html"), "CGIGATE_INDEX_DIR="+docs),
			Args: []string{Needle, Hay}},
		{Name: "small urlencoded POST, HTML out", Env: post, Stdin: body},
	}, nil
}
