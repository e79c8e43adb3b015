package bench

import (
	"context"
	"math/rand/v2"
	"time"
)

// CGIEnv returns the environment Apache gives a CGI program for a GET of
// script with query and the Accept header accept (RFC 3875 section 4.1),
// set by hand so that a program can be timed without a server.
func CGIEnv(script, query, accept string) []string {
	return cgiEnv("GET", script, query, accept)
}

func cgiEnv(method, script, query, accept string) []string {
	return append(cleanEnv(),
		"GATEWAY_INTERFACE=CGI/1.1",
		"SERVER_PROTOCOL=HTTP/1.1",
		"SERVER_SOFTWARE=Apache",
		"SERVER_NAME=localhost",
		"SERVER_PORT=80",
		"SERVER_ADDR=127.0.0.1",
		"REMOTE_ADDR=127.0.0.1",
		"REMOTE_PORT=40000",
		"REQUEST_METHOD="+method,
		"SCRIPT_NAME=/cgi-bin/"+script,
		"REQUEST_URI=/cgi-bin/"+script+"?"+query,
		"QUERY_STRING="+query,
		"HTTP_HOST=localhost",
		"HTTP_ACCEPT="+accept,
	)
}

// Timing is one timed run of a program.
type Timing struct {
	Wall time.Duration // from just before the fork to the reaped exit
	CPU  time.Duration // user + system time of the child (getrusage)
	Counts
}

// Exec runs argv once with env, stdin and stdout on /dev/null. The fork
// and exec from a Go parent are in Wall, the same for every program; CPU
// is what the child itself used, what bounds req/s when the machine's
// cores are the limit, and Counts its page faults and context switches
// (getrusage). When ctx ends the child is killed (command).
func Exec(ctx context.Context, argv, env []string) (Timing, error) {
	cmd := command(ctx, argv[0], argv[1:]...)
	closeAll, err := setStdio(cmd, env, "")
	if err != nil {
		return Timing{}, err
	}
	defer closeAll()
	t0 := time.Now()
	err = cmd.Run()
	t := Timing{Wall: time.Since(t0)}
	if cmd.ProcessState != nil {
		t.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		t.Counts = rusageCounts(cmd.ProcessState)
	}
	return t, wrapRunError(cmd, err)
}

// Program is one command line to time, with variables added to the CGI
// environment (such as CGIGATE_CHARSET=utf-8).
type Program struct {
	Name string
	Argv []string
	Env  []string
}

// Cold is the cold start of one program: its median exec-to-exit time.
type Cold struct {
	Name   string
	Runs   int
	Median time.Duration
	CPU    time.Duration // median user + system time
	Counts               // median page faults and context switches (getrusage)
	// VsFloor is the median over runs of this run's wall time divided by
	// the first program's (the C floor) in the same pass.
	VsFloor float64
}

// ColdStarts times every program runs times, interleaved (one run of each
// per pass, after one unrecorded pass), each answering Query with JSON
// out; the first program is the reference of VsFloor.
//
// Each pass runs the programs in a new order (a fixed-seed shuffle, the
// same for every call): a run right after one of the same binary finds
// its pages in the CPU's caches, and a fixed order gave the second of two
// cgigate variants that advantage every pass (0.84x where alternating
// pairs measure 0.98x).
//
// When ctx ends, the run under way is killed and ctx's error returned.
func ColdStarts(ctx context.Context, progs []Program, runs int) ([]Cold, error) {
	wall := make([][]float64, len(progs))
	cpu := make([][]float64, len(progs))
	faults := make([][]float64, len(progs))
	switches := make([][]float64, len(progs))
	ratios := make([][]float64, len(progs))
	order := rand.New(rand.NewPCG(1, 2))
	for pass := -1; pass < runs; pass++ {
		this := make([]Timing, len(progs))
		for _, i := range order.Perm(len(progs)) {
			p := progs[i]
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t, err := Exec(ctx, p.Argv, append(CGIEnv(Gateway, Query, "application/json"), p.Env...))
			if err != nil {
				return nil, err
			}
			this[i] = t
		}
		if pass < 0 {
			continue
		}
		for i := range progs {
			wall[i] = append(wall[i], float64(this[i].Wall))
			cpu[i] = append(cpu[i], float64(this[i].CPU))
			faults[i] = append(faults[i], float64(this[i].Faults))
			switches[i] = append(switches[i], float64(this[i].Switches))
			ratios[i] = append(ratios[i], float64(this[i].Wall)/float64(this[0].Wall))
		}
	}
	var out []Cold
	for i, p := range progs {
		out = append(out, Cold{Name: p.Name, Runs: runs, Median: time.Duration(Median(wall[i])),
			CPU: time.Duration(Median(cpu[i])), VsFloor: Median(ratios[i]),
			Counts: Counts{Faults: int64(Median(faults[i])), Switches: int64(Median(switches[i]))}})
	}
	return out, nil
}
