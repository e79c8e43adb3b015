package bench

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Plan says what the load rounds run. The zero value is the default plan.
type Plan struct {
	// Connections are wrk's -c values; default 4 and 16 (16 makes two
	// cores the limit).
	Connections []int
	// Rounds is how many times every target is loaded; default 5.
	Rounds int
	// Duration is one wrk run; default 3s.
	Duration time.Duration
	// Warmup is a wrk run per target before the first round, not
	// recorded; default 1s.
	Warmup time.Duration
	// Budget bounds the whole: no round starts when the first one says it
	// would end after Budget; default 15 minutes.
	Budget time.Duration
	// Accept is the request's Accept header; default text/html.
	Accept string
}

func (p Plan) withDefaults() Plan {
	if len(p.Connections) == 0 {
		p.Connections = []int{4, 16}
	}
	if p.Rounds <= 0 {
		p.Rounds = 5
	}
	if p.Duration <= 0 {
		p.Duration = 3 * time.Second
	}
	if p.Warmup <= 0 {
		p.Warmup = time.Second
	}
	if p.Budget <= 0 {
		p.Budget = 15 * time.Minute
	}
	if p.Accept == "" {
		p.Accept = "text/html"
	}
	return p
}

// Key names one target of the load: a peer on one server at one
// connection count.
type Key struct {
	MPM   string
	Conns int
	Peer  string
}

// Results holds, per round, the sample of every target that ran.
type Results struct {
	Rounds []map[Key]Sample
}

// LoadRounds runs plan over servers in interleaved rounds: in each round every
// server, connection count and peer in turn (A B C ... A B C), the peers'
// order rotated by one each round so that no peer always follows the same
// one. A wrk run that fails is reported on progress and left out.
func LoadRounds(ctx context.Context, servers []*Server, plan Plan, progress io.Writer) Results {
	plan = plan.withDefaults()
	if progress == nil {
		progress = io.Discard
	}
	header := []string{"Accept: " + plan.Accept}
	run := func(s *Server, conns int, peer string, d time.Duration) (Sample, error) {
		return s.wrk(ctx, peer, Load{URL: s.URL(peer), Connections: conns, Duration: d, Header: header})
	}
	for _, s := range servers {
		for _, c := range plan.Connections {
			for _, p := range s.Targets() {
				if _, err := run(s, c, p, plan.Warmup); err != nil {
					fmt.Fprintf(progress, "warmup: %v\n", err)
				}
			}
		}
	}
	var res Results
	start := time.Now()
	for r := 0; r < plan.Rounds && ctx.Err() == nil; r++ {
		if r > 0 {
			perRound := time.Since(start) / time.Duration(r)
			if time.Since(start)+perRound > plan.Budget {
				fmt.Fprintf(progress, "budget %v reached after %d rounds\n", plan.Budget, r)
				break
			}
		}
		round := map[Key]Sample{}
		for _, s := range servers {
			for _, c := range plan.Connections {
				peers := s.Targets()
				for i := range peers {
					p := peers[(i+r)%len(peers)]
					smp, err := run(s, c, p, plan.Duration)
					if err != nil {
						fmt.Fprintf(progress, "round %d: %v\n", r+1, err)
						continue
					}
					round[Key{s.Setup.String(), c, p}] = smp
					fmt.Fprintf(progress, "round %d %-7s c=%-2d %-14s %8.1f req/s  mean %v  p99 %v\n",
						r+1, s.Setup, c, p, smp.RPS, smp.Mean, smp.P99)
				}
			}
		}
		res.Rounds = append(res.Rounds, round)
	}
	return res
}
