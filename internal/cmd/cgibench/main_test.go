package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/bench"
)

func TestFlagsThatCannotBeRunAreRefused(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"an unknown part is refused", []string{"-only", "load,speed"}},
		{"a connection count that is not a number is refused", []string{"-conns", "4,x"}},
		{"a zero connection count is refused", []string{"-conns", "0"}},
		{"a negative body size is refused", []string{"-mem-urlencoded", "-1"}},
		{"an unknown flag is refused", []string{"-fast"}},
		{"an unknown Apache setup is refused", []string{"-mpm", "event,worker"}},
		{"a site size that is not a number is refused", []string{"-only", "omega", "-omega-docs", "10k"}},
		{"a chart folder that cannot be made is refused before any part runs", []string{"-plot", "/dev/null/charts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			if code := run(tt.args, &out, &errOut); code != 2 {
				t.Errorf("run(%q) = %d, want 2 (usage); stderr %q", tt.args, code, errOut.String())
			}
			if out.Len() != 0 {
				t.Errorf("run(%q) wrote a report: %q", tt.args, out.String())
			}
		})
	}
}

func TestOmegaRunsOnlyWhenNamed(t *testing.T) {
	o, err := parse(nil, io.Discard, io.Discard)
	if err != nil || o.want("omega") {
		t.Errorf("by default: omega wanted %v, %v; want a report without it", o.want("omega"), err)
	}
	o, err = parse([]string{"-only", "omega", "-omega-docs", "2000,20000"}, io.Discard, io.Discard)
	if err != nil || !o.want("omega") || !slices.Equal(o.omegaDocs, []int{2000, 20000}) {
		t.Errorf("-only omega -omega-docs 2000,20000: %v, %v, %v; want omega over 2000 and 20000 documents", o.want("omega"), o.omegaDocs, err)
	}
}

func TestLists(t *testing.T) {
	if got, err := ints(" 4, 16"); err != nil || !slices.Equal(got, []int{4, 16}) {
		t.Errorf("ints = %v, %v; want [4 16]", got, err)
	}
	if got, err := floats("1.25,10"); err != nil || !slices.Equal(got, []float64{1.25, 10}) {
		t.Errorf("floats = %v, %v; want [1.25 10]", got, err)
	}
}

func TestPlotFolderIsMadeByParse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "charts", "new")
	if _, err := parse([]string{"-plot", dir, "-mpm", "worker"}, io.Discard, io.Discard); err == nil {
		t.Fatal("parse accepted -mpm worker")
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatalf("parse made %s for flags it refused", dir)
	}
	o, err := parse([]string{"-plot", dir, "-only", "search"}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || o.plot != dir {
		t.Errorf("after parse, -plot %s: %v (plot %q)", dir, err, o.plot)
	}
}

func TestAgainstReferencesReadsTheRowsOfEachGroup(t *testing.T) {
	row := func(mpm string, conns int, peer string, vsFloor, vsGateway float64) bench.Row {
		return bench.Row{Key: bench.Key{MPM: mpm, Conns: conns, Peer: peer}, VsFloor: vsFloor, VsGateway: vsGateway}
	}
	rows := []bench.Row{
		row("event", 4, bench.Floor, 1, 1.6),
		row("event", 4, bench.GoHello, 0.75, 1.2),
		row("event", 4, bench.GoDeps, 0.7, 1.25),
		row("event", 4, bench.Gateway, 0.56, 1),
		row("event", 16, bench.GoHello, 0.6, 1.5), // no go-deps: no line
		row("prefork", 4, bench.GoHello, 3, 1.3),
		row("prefork", 4, bench.GoDeps, 2.5, 1.1),
	}
	var b strings.Builder
	againstReferences(&b, rows)
	got := b.String()
	for _, want := range []string{
		"- event, 4 connections: go-hello 0.75x the floor, go-deps 0.70x; cgigate 0.80x go-deps\n",
		"- prefork, 4 connections: go-hello 3.00x the floor, go-deps 2.50x; cgigate 0.91x go-deps\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "event, 16") {
		t.Errorf("a group without go-deps has a line:\n%s", got)
	}
}

func TestAFlagErrorIsPrintedOnce(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"-fast"}, &out, &errOut); code != 2 {
		t.Fatalf("run(-fast) = %d, want 2", code)
	}
	if n := strings.Count(errOut.String(), "flag provided but not defined: -fast"); n != 1 {
		t.Errorf("the flag error is printed %d times:\n%s", n, errOut.String())
	}
}
