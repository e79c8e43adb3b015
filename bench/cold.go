package bench

import (
	"fmt"
	"os"
	"os/exec"
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

// Exec runs argv once with env, stdin and stdout on /dev/null, and returns
// the time from just before the fork to the reaped exit. The fork and exec
// from a Go parent are in it, the same for every program.
func Exec(argv, env []string) (time.Duration, error) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer null.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	t0 := time.Now()
	err = cmd.Run()
	d := time.Since(t0)
	if err != nil {
		return d, fmt.Errorf("bench: %s: %w", argv[0], err)
	}
	return d, nil
}

// Cold is the cold start of one program: its median exec-to-exit time.
type Cold struct {
	Peer   string
	Runs   int
	Median time.Duration
	// VsFloor is the median over runs of this run's time divided by the C
	// floor's in the same pass.
	VsFloor float64
}

// ColdStarts times every program of argv (peer -> command line) runs
// times, interleaved (one run of each per pass, after one unrecorded
// pass), each answering Query with JSON out, and returns them in the order
// of peers.
func ColdStarts(peers []string, argv map[string][]string, runs int) ([]Cold, error) {
	times := map[string][]float64{}
	var ratios = map[string][]float64{}
	for pass := -1; pass < runs; pass++ {
		this := map[string]time.Duration{}
		for _, p := range peers {
			d, err := Exec(argv[p], CGIEnv(p, Query, "application/json"))
			if err != nil {
				return nil, err
			}
			this[p] = d
		}
		if pass < 0 {
			continue
		}
		for _, p := range peers {
			times[p] = append(times[p], float64(this[p]))
			if f, ok := this[Floor]; ok {
				ratios[p] = append(ratios[p], float64(this[p])/float64(f))
			}
		}
	}
	var out []Cold
	for _, p := range peers {
		out = append(out, Cold{Peer: p, Runs: runs, Median: time.Duration(Median(times[p])), VsFloor: Median(ratios[p])})
	}
	return out, nil
}
