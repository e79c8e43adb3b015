package bench

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSummarizeQuotesMediansOfPerRoundRatios(t *testing.T) {
	// Round 1: a slow machine (floor 100, cgigate 80); round 2 fast
	// (floor 1000, cgigate 500); round 3 floor 400, cgigate 360. The
	// per-round ratios are 0.8, 0.5, 0.9: median 0.8. The ratio of the
	// medians (360/400 = 0.9) would be another figure.
	k := func(p string) Key { return Key{"event", 4, p} }
	res := Results{Rounds: []map[Key]Sample{
		{k(Floor): {Requests: 1, RPS: 100, Mean: 40 * time.Millisecond}, k(Gateway): {Requests: 1, RPS: 80, Mean: 50 * time.Millisecond, Non2xx: 1}},
		{k(Floor): {Requests: 1, RPS: 1000, Mean: 4 * time.Millisecond}, k(Gateway): {Requests: 1, RPS: 500, Mean: 8 * time.Millisecond}},
		{k(Floor): {Requests: 1, RPS: 400, Mean: 10 * time.Millisecond}, k(Gateway): {Requests: 1, RPS: 360, Mean: 11 * time.Millisecond, Errors: 2}},
	}}
	rows := Summarize(res)
	if len(rows) != 2 || rows[0].Peer != Floor || rows[1].Peer != Gateway {
		t.Fatalf("rows = %+v, want the floor then cgigate", rows)
	}
	g := rows[1]
	if g.VsFloor != 0.8 {
		t.Errorf("cgigate VsFloor = %v, want 0.8 (median of 0.8, 0.5, 0.9)", g.VsFloor)
	}
	if g.RPS != 360 || g.Mean != 11*time.Millisecond {
		t.Errorf("cgigate medians = %v req/s, %v; want 360, 11ms", g.RPS, g.Mean)
	}
	if g.Bad != 3 || g.Rounds != 3 {
		t.Errorf("cgigate Bad, Rounds = %d, %d; want 3, 3", g.Bad, g.Rounds)
	}
	if want := 1 / 0.8; rows[0].VsGateway != want {
		t.Errorf("floor VsGateway = %v, want %v (median of 1.25, 2, 1.11)", rows[0].VsGateway, want)
	}
}

func TestSummarizeOrdersGroupsAndPeers(t *testing.T) {
	round := map[Key]Sample{}
	for _, m := range []string{"prefork", "event"} {
		for _, c := range []int{16, 4} {
			for _, p := range []string{GatewayF, Python, GoDeps, Gateway, Floor, GoHello} {
				round[Key{m, c, p}] = Sample{Requests: 1, RPS: 1}
			}
		}
	}
	var got []string
	for _, r := range Summarize(Results{Rounds: []map[Key]Sample{round}}) {
		got = append(got, fmt.Sprintf("%s/%d/%s", r.MPM, r.Conns, r.Peer))
	}
	// The references sit beside the floor they are read against.
	want := []string{
		"event/4/c-floor", "event/4/go-hello", "event/4/go-deps", "event/4/python-cgi", "event/4/cgigate", "event/4/cgigate-fcgi",
		"event/16/c-floor", "event/16/go-hello", "event/16/go-deps", "event/16/python-cgi", "event/16/cgigate", "event/16/cgigate-fcgi",
		"prefork/4/c-floor", "prefork/4/go-hello", "prefork/4/go-deps", "prefork/4/python-cgi", "prefork/4/cgigate", "prefork/4/cgigate-fcgi",
		"prefork/16/c-floor", "prefork/16/go-hello", "prefork/16/go-deps", "prefork/16/python-cgi", "prefork/16/cgigate", "prefork/16/cgigate-fcgi",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order\n got %v\nwant %v", got, want)
	}
}

func TestSummarizeLeavesOutRatiosWithoutAReference(t *testing.T) {
	rows := Summarize(Results{Rounds: []map[Key]Sample{{{"event", 4, Python}: {Requests: 1, RPS: 10}}}})
	if rows[0].VsFloor != 0 || rows[0].VsGateway != 0 {
		t.Errorf("ratios = %v, %v; want 0, 0 when neither the floor nor cgigate ran", rows[0].VsFloor, rows[0].VsGateway)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"no value has median 0", nil, 0},
		{"an odd count takes the middle value", []float64{3, 1, 2}, 2},
		{"an even count takes the mean of the middle two", []float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]float64(nil), tt.xs...)
			if got := Median(tt.xs); got != tt.want {
				t.Errorf("Median(%v) = %v, want %v", tt.xs, got, tt.want)
			}
			for i := range in {
				if in[i] != tt.xs[i] {
					t.Errorf("Median modified its input: %v", tt.xs)
				}
			}
		})
	}
}

func TestFormatTable(t *testing.T) {
	rows := []Row{
		{Key: Key{"event", 4, Floor}, Rounds: 5, RPS: 681.4, Mean: 5830 * time.Microsecond, P99: 12 * time.Millisecond, VsFloor: 1, VsGateway: 1.25},
		{Key: Key{"event", 4, Python}, Rounds: 4, RPS: 46, Mean: 87 * time.Millisecond, P99: 140 * time.Millisecond, Bad: 2},
	}
	var b strings.Builder
	if err := FormatTable(&b, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"| MPM | conns | peer | req/s | mean | p99 | × C floor | × cgigate | rounds | bad |",
		"|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
		"| event | 4 | c-floor | 681 | 5.830 ms | 12.0 ms | 1.00x | 1.25x | 5 | 0 |",
		"| event | 4 | python-cgi | 46 | 87.0 ms | 140 ms | – | – | 4 | 2 |",
	}
	if len(lines) != len(want) {
		t.Fatalf("table has %d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d\n got %q\nwant %q", i, lines[i], want[i])
		}
	}
}

func TestSummarizeLeavesOutRunsThatCompletedNothing(t *testing.T) {
	k := func(p string) Key { return Key{"event", 16, p} }
	rows := Summarize(Results{Rounds: []map[Key]Sample{
		{k(Floor): {Requests: 10, RPS: 100}, k(Python): {Requests: 0, RPS: 0}},
		{k(Floor): {Requests: 10, RPS: 100}, k(Python): {Requests: 5, RPS: 5}},
	}})
	py := rows[1]
	if py.Peer != Python || py.Rounds != 1 || py.Bad != 1 || py.RPS != 5 || py.VsFloor != 0.05 {
		t.Errorf("python row = %+v; want 1 round, 1 bad, 5 req/s, 0.05x the floor", py)
	}
}

func TestServerTargetsListTheFastCGIModeOnlyWhenItIsProxied(t *testing.T) {
	for _, fcgi := range []bool{false, true} {
		got := (&Server{FastCGI: fcgi}).Targets()
		want := []string{Floor, GoHello, GoDeps, GoCGI, CGIPM, Python, Gateway}
		if fcgi {
			want = append(want, GatewayF)
		}
		if !slices.Equal(got, want) {
			t.Errorf("FastCGI %v: Targets() = %v, want %v", fcgi, got, want)
		}
	}
}
