package search

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestABuildThatFailsLeavesNoTemporaryFile lets a build open a few files
// more than it has open when it starts: it fails in the middle of its
// gram runs (runs of 50 pairs, none merged before the end, each a file
// open), and must leave none of its temporary files behind.
func TestABuildThatFailsLeavesNoTemporaryFile(t *testing.T) {
	dir := sentenceSite(t, 300)
	defer func(p, f int) { gramRunPairs, gramFanIn = p, f }(gramRunPairs, gramFanIn)
	gramRunPairs, gramFanIn = 50, 1<<20
	var err error
	// The segment, a run of postings, the lock, the manifest, a document,
	// the three tables and a few gram runs; not the hundreds of runs.
	withFewFiles(t, func() { _, err = (&Folder{Dir: dir}).Rebuild() })
	if err == nil {
		t.Fatal("the build did not run out of files: the test says nothing")
	}
	t.Log(err)
	if left, _ := filepath.Glob(filepath.Join(dir, IndexName+"-*")); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
}

// TestABuildOfManyRunsOpensFewFiles builds with runs of a few postings,
// hundreds of them, under a limit of open files a few above what the
// test has open: the runs are merged postingFanIn at a time, so the
// files a build holds open (and their read buffers) do not follow the
// number of documents, and the index is the one a single run writes.
func TestABuildOfManyRunsOpensFewFiles(t *testing.T) {
	dir := corpus(t, 300, 4)
	defer func(p, f, g int) { runPostings, postingFanIn, gramFanIn = p, f, g }(runPostings, postingFanIn, gramFanIn)
	st, err := (&Folder{Dir: dir}).Rebuild()
	if err != nil {
		t.Fatal(err)
	}
	one, err := os.ReadFile(st.Segment)
	if err != nil {
		t.Fatal(err)
	}
	runPostings, postingFanIn, gramFanIn = 10, 4, 4
	withFewFiles(t, func() { st, err = (&Folder{Dir: dir}).Rebuild() })
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(st.Segment); err != nil || !bytes.Equal(got, one) {
		t.Errorf("%v: %d bytes; one run wrote %d", err, len(got), len(one))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, IndexName+"-*")); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
}

// withFewFiles runs fn allowed to open 20 files more than the test has
// open.
func withFewFiles(t *testing.T, fn func()) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	open, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	few := lim
	few.Cur = uint64(len(open) + 20)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &few); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
	}()
	fn()
}
