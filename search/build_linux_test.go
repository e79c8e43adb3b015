package search

import (
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
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	open, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	// The segment, a run of postings, the lock, the manifest, a document,
	// the three tables and a few gram runs; not the hundreds of runs.
	few := lim
	few.Cur = uint64(len(open) + 20)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &few); err != nil {
		t.Fatal(err)
	}
	_, err = (&Folder{Dir: dir}).Rebuild()
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Fatal("the build did not run out of files: the test says nothing")
	}
	t.Log(err)
	if left, _ := filepath.Glob(filepath.Join(dir, IndexName+"-*")); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
}
