package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/search"
)

// indexAnswers are the index's answers to a few queries, every result;
// an index that cannot be used (a warning) fails the test.
func indexAnswers(t *testing.T, dir string) []*search.Page {
	t.Helper()
	var pages []*search.Page
	for _, words := range [][]string{{bench.Needle}, {bench.Hay}, {"zebra"}, {"e"}} {
		q, err := search.ParseQuery(words, decoder.DefaultMaxKeywords)
		if err != nil {
			t.Fatal(err)
		}
		p, err := (&search.Folder{Dir: dir, Log: t.Logf}).Search(q, 1, 1000)
		if err != nil || len(p.Warnings) != 0 {
			t.Fatalf("%q: %v %q", words, err, p.Warnings)
		}
		pages = append(pages, p)
	}
	return pages
}

// killPoints are the moments of a build a test kills it at, each told
// by what the folder holds: the files new since the build started
// (fresh) and whether the manifest changed.
var killPoints = []struct {
	name string
	now  func(fresh []string, manifestChanged bool) bool
}{
	{"writing the segment", func(fresh []string, _ bool) bool { return anySuffix(fresh, ".seg") }},
	{"writing the stat table", func(fresh []string, _ bool) bool { return anySuffix(fresh, ".stat") }},
	{"writing the new manifest", func(fresh []string, _ bool) bool { return anySuffix(fresh, ".tmp") }},
	{"with the new manifest in place", func(_ []string, changed bool) bool { return changed }},
}

func anySuffix(names []string, suffix string) bool {
	for _, n := range names {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return false
}

// cgigate -index killed at each step of an update and of a full rebuild,
// as the test sees the folder, or at a moment spread over its run, leaves
// an index that answers as the one before or the one a complete run then
// writes; the complete run leaves no file the manifest does not name.
func TestKilledIndexBuildLeavesTheOldOrTheNewIndex(t *testing.T) {
	dir := t.TempDir()
	if err := bench.GenerateIndex(dir, 3000, 4); err != nil {
		t.Fatal(err)
	}
	// Documents older than a build are trusted by the next one, which then
	// reads only the changed ones.
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = os.Chtimes(p, old, old)
		}
		return err
	})
	took := map[bool]time.Duration{}
	for _, full := range []bool{true, false} { // how long a run takes
		args := []string{"-index", dir}
		if full {
			args = append(args, "-full")
		} else if err := os.WriteFile(filepath.Join(dir, "new.txt"), []byte("zebra"), 0o644); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		if out, err := execCommand(args...).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		took[full] = time.Since(t0)
	}
	indexFiles := func() map[string]bool {
		names, _ := filepath.Glob(filepath.Join(dir, search.IndexName+"*"))
		m := map[string]bool{}
		for _, n := range names {
			m[filepath.Base(n)] = true
		}
		return m
	}
	const runs = 2 * 6 // each kill point and two moments, for an update and a rebuild
	killed := 0
	for run := range runs {
		full, point := run%2 == 1, run/2
		name := "at a moment"
		if point < len(killPoints) {
			name = killPoints[point].name
		}
		before := indexAnswers(t, dir)
		for j := range 5 {
			p := filepath.Join(dir, fmt.Sprintf("zoo/z%d.txt", (run*5+j)%7))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(fmt.Sprintf("zebra %d %s", run, strings.Repeat("e", j))), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args := []string{"-index", dir}
		if full {
			args = append(args, "-full")
		}
		was, manifest := indexFiles(), readFile(t, filepath.Join(dir, search.IndexName))
		cmd := execCommand(args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		if point < len(killPoints) {
		watch:
			for {
				select {
				case err = <-done:
					break watch
				default:
				}
				var fresh []string
				for n := range indexFiles() {
					if !was[n] {
						fresh = append(fresh, n)
					}
				}
				if killPoints[point].now(fresh, readFile(t, filepath.Join(dir, search.IndexName)) != manifest) {
					cmd.Process.Signal(syscall.SIGKILL)
					err = <-done
					break
				}
			}
		} else {
			time.Sleep(took[full] * time.Duration(point-len(killPoints)+1) / 3)
			cmd.Process.Signal(syscall.SIGKILL)
			err = <-done
		}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killed++
		} else if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		got := indexAnswers(t, dir)
		buildWithBinary(t, dir)
		after := indexAnswers(t, dir)
		if !reflect.DeepEqual(got, before) && !reflect.DeepEqual(got, after) {
			t.Errorf("killed %s (full %v): the index answers neither as before nor as after", name, full)
		}
		if reflect.DeepEqual(before, after) {
			t.Errorf("run %d: the change changed no answer: the test proves nothing", run)
		}
		checkIndexFiles(t, dir)
	}
	if killed < runs/2 {
		t.Errorf("only %d of %d runs were killed before they ended", killed, runs)
	}
	t.Logf("%d of %d runs killed; a run took %v (update) and %v (full)", killed, runs, took[false], took[true])
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkIndexFiles fails when dir holds an index file other than the
// manifest and the files it names (which the manifest's bytes hold).
func checkIndexFiles(t *testing.T, dir string) {
	t.Helper()
	m, err := os.ReadFile(filepath.Join(dir, search.IndexName))
	if err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, search.IndexName+"*"))
	for _, n := range names {
		if b := filepath.Base(n); b != search.IndexName && !strings.Contains(string(m), b) {
			t.Errorf("left behind: %s", b)
		}
	}
}

func TestIndexCommandUpdates(t *testing.T) {
	docs := map[string]string{"a.txt": "alpha", "b.txt": "beta", "c.html": "<title>Gamma</title><p>alpha gamma</p>"}
	for i := range 30 { // the changes stay under a tenth of the index: no merge
		docs[fmt.Sprintf("f%d.txt", i)] = "filler"
	}
	dir := makeIndex(t, docs)
	old := time.Now().Add(-time.Hour)
	for n := range docs {
		os.Chtimes(filepath.Join(dir, n), old, old)
	}
	for _, tc := range []struct {
		name, out string
		change    func()
		args      []string
		found     string // by alpha
	}{
		{"the first run indexes every document", "indexed 33 documents", func() {}, nil, "a.txt c.html"},
		{"a run with nothing changed says so", "is up to date: 33 documents in 1 segments", func() {}, nil, "a.txt c.html"},
		{"a run after a change reads only the changed document", "read 1 documents, removed 0; 33 documents in 2 segments", func() {
			os.WriteFile(filepath.Join(dir, "b.txt"), []byte("beta alpha"), 0o644)
			// Older than the run: not one that may still change (read again next time).
			os.Chtimes(filepath.Join(dir, "b.txt"), old.Add(time.Minute), old.Add(time.Minute))
		}, nil, "a.txt b.txt c.html"},
		{"a run after a removal reads nothing", "read 0 documents, removed 1; 32 documents in 3 segments", func() {
			os.Remove(filepath.Join(dir, "a.txt"))
		}, nil, "b.txt c.html"},
		{"-full reads every document", "indexed 32 documents", func() {}, []string{"-full"}, "b.txt c.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.change()
			out, err := execCommand(append([]string{"-index", dir}, tc.args...)...).CombinedOutput()
			if err != nil || !strings.Contains(string(out), tc.out) {
				t.Errorf("%v %q; want %q", err, out, tc.out)
			}
			a := get(t, "alpha", "CGIGATE_INDEX_DIR", dir, acceptJSON, "application/json")
			var urls []string
			for _, r := range jsonResult(t, a.body).Results {
				urls = append(urls, r.URL)
			}
			if strings.Join(urls, " ") != tc.found || a.stderr != "" {
				t.Errorf("alpha found %q; want %q (stderr %q)", urls, tc.found, a.stderr)
			}
		})
	}
}
