package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestOmegaHits(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		want    []string
		wantErr bool
	}{
		{"the title links of Omega's hit list are read in rank order", "omega-hits.html",
			[]string{"/docs/c.html", "/docs/a.txt", "/docs/sub/b%20c.txt"}, false},
		{"Omega's page for no match has no results", "omega-none.html", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := OmegaHits(page)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("OmegaHits(%s) = %q, %v; want %q", tt.file, got, err, tt.want)
			}
		})
	}
	t.Run("a page that is not Omega's is an error, not no results", func(t *testing.T) {
		page := `<html><body><h1>Internal Server Error</h1><table><tr><td><b><a href="/x">x</a></b></td></tr></table></body></html>`
		if got, err := OmegaHits([]byte(page)); err == nil {
			t.Errorf("OmegaHits(error page) = %q, nil; want an error", got)
		}
	})
}

func TestGatewayHits(t *testing.T) {
	body := `{"kind":"isindex","results":[{"title":"a","url":"/docs/a.txt","score":3},{"title":"b","url":"/docs/b%20c.txt","score":1}],"total":12,"page":1,"pages":2}`
	urls, total, err := GatewayHits([]byte(body))
	if err != nil || total != 12 || !slices.Equal(urls, []string{"/docs/a.txt", "/docs/b%20c.txt"}) {
		t.Errorf("GatewayHits = %q, %d, %v; want the two URLs and 12", urls, total, err)
	}
	for _, bad := range []string{`{"kind":"form","results":[]}`, `<html>`, ``} {
		if _, _, err := GatewayHits([]byte(bad)); err == nil {
			t.Errorf("GatewayHits(%q) took it for a search answer", bad)
		}
	}
}

func TestAgreement(t *testing.T) {
	ten := func(prefix string) []string {
		var out []string
		for i := range 12 {
			out = append(out, "/docs/"+prefix+string(rune('a'+i)))
		}
		return out
	}
	tests := []struct {
		name string
		a, b []string
		want float64
	}{
		{"two empty lists agree", nil, nil, 1},
		{"an empty and a non-empty list do not", nil, []string{"/docs/a"}, 0},
		{"the same ten in another order agree fully", ten("x")[:10], reversed(ten("x")[:10]), 1},
		{"only the first ten of each count", ten("x"), append(ten("y")[:10], ten("x")[10:]...), 0},
		{"four in common of ten is 40%", ten("x")[:10], append(ten("x")[:4:4], ten("y")[:6]...), 0.4},
		{"a shorter list is measured against its own length", []string{"/docs/a", "/docs/b", "/docs/c"}, append([]string{"/docs/c", "/docs/a"}, ten("y")...), 2.0 / 3},
		{"percent-encoding does not make two URLs differ", []string{"/docs/b%20c.txt"}, []string{"/docs/b c.txt"}, 1},
		{"a URL listed twice counts once", []string{"/docs/a", "/docs/a"}, []string{"/docs/a", "/docs/b"}, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Agreement(tt.a, tt.b); got != tt.want {
				t.Errorf("Agreement = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFoundAny(t *testing.T) {
	truth := []string{"d0000/doc000001.html", "d0000/doc000003.html"}
	if got := FoundAny([]string{"/docs/d0000/doc000003.html", "/docs/d0000/doc000002.txt"}, SitePath, truth); got != 1 {
		t.Errorf("FoundAny = %d, want 1 (one result contains the word)", got)
	}
	if got := FoundAny(nil, SitePath, truth); got != 0 {
		t.Errorf("FoundAny(no results) = %d, want 0", got)
	}
}

func TestFindOmegaNamesWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	o := Omega{Omindex: filepath.Join(dir, "omindex"), CGI: filepath.Join(dir, "omega"), Templates: dir}
	os.WriteFile(o.Omindex, nil, 0o755)
	_, err := FindOmega(o)
	if !errors.Is(err, ErrNoOmega) || !strings.Contains(err.Error(), o.CGI) || strings.Contains(err.Error(), o.Omindex+",") {
		t.Errorf("FindOmega = %v; want ErrNoOmega naming %s and its templates, not omindex", err, o.CGI)
	}
	os.WriteFile(o.CGI, nil, 0o755)
	os.WriteFile(filepath.Join(dir, "query"), nil, 0o644)
	if _, err := FindOmega(o); err != nil {
		t.Errorf("FindOmega with every part there = %v", err)
	}
}

func TestWrkScriptSendsEveryPathInTurn(t *testing.T) {
	got := WrkScript([]string{"/cgi-bin/omega?P=a", "/cgi-bin/cgigate?q=%22b%22"})
	for _, want := range []string{`"/cgi-bin/omega?P=a",`, `"/cgi-bin/cgigate?q=%22b%22",`, "i = i % #paths + 1", "wrk.format(nil, paths[i])"} {
		if !strings.Contains(got, want) {
			t.Errorf("script lacks %q:\n%s", want, got)
		}
	}
}

func TestFormatSideBySideShowsTheFastCGIModeOnTheCGIsIndex(t *testing.T) {
	rows := []EngineRow{
		{Docs: 10000, Engine: Gateway, Build: Build{Wall: 4200 * time.Millisecond, CPU: 3100 * time.Millisecond, PeakRSS: 52_400_000, Size: 21_000_000},
			Query: Timing{CPU: 81200 * time.Microsecond, Counts: Counts{Faults: 2061}},
			Load:  map[int]Row{4: {Rounds: 5, RPS: 212.4, P99: 48 * time.Millisecond}, 16: {Rounds: 5, RPS: 301, P99: 150 * time.Millisecond}}, Agreement: 0.65},
		{Docs: 10000, Engine: GatewayF, Build: Build{Wall: 4200 * time.Millisecond, CPU: 3100 * time.Millisecond, PeakRSS: 52_400_000, Size: 21_000_000},
			Query: Timing{CPU: 900 * time.Microsecond},
			Load:  map[int]Row{4: {Rounds: 5, RPS: 2100, P99: 4 * time.Millisecond}, 16: {Rounds: 5, RPS: 2500, P99: 15 * time.Millisecond}}, Agreement: 0.65},
		{Docs: 10000, Engine: OmegaEngine, Build: Build{Wall: 31 * time.Second, CPU: 29 * time.Second, PeakRSS: 120_000_000, Size: 150_000_000},
			Query: Timing{CPU: 17 * time.Millisecond, Counts: Counts{Faults: 260}},
			Load:  map[int]Row{4: {Rounds: 5, RPS: 180, P99: 12500 * time.Microsecond}}, Agreement: 0.65},
	}
	var b strings.Builder
	if err := FormatSideBySide(&b, rows, []int{4, 16}); err != nil {
		t.Fatal(err)
	}
	want := `| documents | engine | build wall | build CPU | build peak RSS | index size | CPU per query | page faults per query | req/s at 4 | p99 at 4 | req/s at 16 | p99 at 16 | top-10 agreement |
|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| 10000 | cgigate | 4.20 s | 3.10 s | 52.4 MB | 21.0 MB | 81.2 ms | 2061 | 212 | 48.0 ms | 301 | 150 ms | 65% |
| 10000 | cgigate-fcgi | (the same index) | | | | 0.900 ms | – | 2100 | 4.000 ms | 2500 | 15.0 ms | 65% |
| 10000 | omega | 31.0 s | 29.0 s | 120 MB | 150 MB | 17.0 ms | 260 | 180 | 12.5 ms | – | – | 65% |
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestFormatQueriesSaysWhichJapaneseQueryAnEngineMissed(t *testing.T) {
	res := []QueryResult{
		{Query: SiteQuery{"printing", "English word", English}, Omega: []string{"/docs/a"}, Gate: []string{"/docs/a"}, GateTotal: 1, Agreement: 1, Truth: -1},
		{Query: SiteQuery{"印刷", "Japanese", Japanese}, Gate: []string{"/docs/b", "/docs/c"}, GateTotal: 7, Truth: 7, GateTrue: 2},
	}
	var b strings.Builder
	if err := FormatQueries(&b, 100, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| `printing` | English word | 1 | 1 (1) | 100% |",
		"| `印刷` | Japanese | 0 | 2 (7) | 0% |",
		"| `印刷` | 7 | **missed** (0 of 0) | found (2 of 2) |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no line %q in\n%s", want, b.String())
		}
	}
	if strings.Count(b.String(), "`printing`") != 1 {
		t.Errorf("an English query is in the Japanese table:\n%s", b.String())
	}
}

func reversed(xs []string) []string {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}

func TestQueryCostRunsEveryQueryOfEachEngineInterleaved(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	script := filepath.Join(dir, "engine")
	// Each run appends its name (from the environment) and QUERY_STRING.
	os.WriteFile(script, []byte("#!/bin/sh\necho \"$ENGINE $QUERY_STRING\" >> "+log+"\n"), 0o755)
	progs := []Program{{Name: "a", Argv: []string{script}, Env: []string{"ENGINE=a"}}, {Name: "b", Argv: []string{script}, Env: []string{"ENGINE=b"}}}
	costs, err := QueryCost(context.Background(), progs, [][]string{{"q=1", "q=2"}, {"P=1", "P=2"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(log)
	want := strings.Repeat("a q=1\nb P=1\na q=2\nb P=2\n", 3) // one unrecorded pass, then 2
	if string(got) != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
	if len(costs) != 2 || costs[0].CPU <= 0 || costs[1].Faults <= 0 {
		t.Errorf("costs = %+v; want the CPU and page faults of each engine's runs", costs)
	}
}
