package bench

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Row is one line of the table: a target's medians over the rounds.
type Row struct {
	Key
	Rounds int // rounds in which the target ran
	RPS    float64
	Mean   time.Duration
	P99    time.Duration
	// VsFloor and VsGateway are the medians over rounds of this target's
	// req/s divided by the C floor's and by cgigate's (CGI mode) in the
	// same round and group; 0 when no round had both.
	VsFloor, VsGateway float64
	// Bad counts non-2xx answers and socket errors over all rounds, plus
	// one per run that completed no request (left out of the medians).
	Bad int
}

// Summarize turns results into rows, grouped by MPM and connections in
// the order first seen, targets in the order of Server.Targets.
func Summarize(res Results) []Row {
	var keys []Key
	seen := map[Key]bool{}
	for _, round := range res.Rounds {
		for k := range round {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	order := tableOrder()
	slices.SortStableFunc(keys, func(a, b Key) int {
		if c := strings.Compare(a.MPM, b.MPM); c != 0 { // event (Debian's default) before prefork
			return c
		}
		if a.Conns != b.Conns {
			return a.Conns - b.Conns
		}
		return slices.Index(order, a.Peer) - slices.Index(order, b.Peer)
	})
	var rows []Row
	for _, k := range keys {
		var rps, mean, p99, vsF, vsG []float64
		row := Row{Key: k}
		for _, round := range res.Rounds {
			s, ok := round[k]
			if !ok {
				continue
			}
			row.Bad += s.Non2xx + s.Errors
			if s.Requests == 0 || s.RPS == 0 {
				row.Bad++ // a run that completed nothing says nothing of speed
				continue
			}
			row.Rounds++
			rps = append(rps, s.RPS)
			mean = append(mean, float64(s.Mean))
			p99 = append(p99, float64(s.P99))
			if f, ok := round[Key{k.MPM, k.Conns, Floor}]; ok && f.RPS > 0 && f.Requests > 0 {
				vsF = append(vsF, s.RPS/f.RPS)
			}
			if g, ok := round[Key{k.MPM, k.Conns, Gateway}]; ok && g.RPS > 0 && g.Requests > 0 {
				vsG = append(vsG, s.RPS/g.RPS)
			}
		}
		row.RPS = Median(rps)
		row.Mean = time.Duration(Median(mean))
		row.P99 = time.Duration(Median(p99))
		row.VsFloor = Median(vsF)
		row.VsGateway = Median(vsG)
		rows = append(rows, row)
	}
	return rows
}

// Median returns the median of xs (the mean of the middle two for an even
// count), or 0 for none. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// FormatTable writes rows as a Markdown table.
func FormatTable(w io.Writer, rows []Row) error {
	var b strings.Builder
	b.WriteString("| MPM | conns | peer | req/s | mean | p99 | × C floor | × cgigate | rounds | bad |\n")
	b.WriteString("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %s | %.0f | %s | %s | %s | %s | %d | %d |\n",
			r.MPM, r.Conns, r.Peer, r.RPS, FormatDuration(r.Mean), FormatDuration(r.P99),
			ratio(r.VsFloor), ratio(r.VsGateway), r.Rounds, r.Bad)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ratio(x float64) string {
	if x == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2fx", x)
}

// FormatDuration prints d in milliseconds with three significant digits
// ("0.912 ms", "23.4 ms", "145 ms").
func FormatDuration(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 10:
		return fmt.Sprintf("%.3f ms", ms)
	case ms < 100:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.0f ms", ms)
}
