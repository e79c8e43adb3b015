// Package proctest reads /proc for tests that check that a command
// stopped everything it started: the processes descended from one, those
// whose command line names a path, whether one still runs.
package proctest

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Descendants lists pid and the processes descended from it.
func Descendants(t testing.TB, pid int) []int {
	t.Helper()
	parent := map[int]int{}
	for _, p := range all(t) {
		if pp, _, ok := stat(p); ok {
			parent[p] = pp
		}
	}
	var out []int
	for p := range parent {
		for a := p; a > 1; a = parent[a] {
			if a == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Naming lists the running processes whose command line holds s, such
// as a temporary folder a command put its programs and servers in: they
// are found even after their parent has died and init adopted them.
func Naming(t testing.TB, s string) []int {
	t.Helper()
	var out []int
	for _, p := range all(t) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
		if err == nil && strings.Contains(string(b), s) && Running(p) {
			out = append(out, p)
		}
	}
	return out
}

func all(t testing.TB) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		if p, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// stat reads the parent and the state (R, S, Z...) of pid.
func stat(pid int) (ppid int, state string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	// "pid (comm) state ppid ...", where comm may hold spaces and ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, "", false
	}
	ppid, err = strconv.Atoi(f[1])
	return ppid, f[0], err == nil
}

// Running says whether pid is a process that has not exited (a zombie
// has; only its parent has not reaped it yet).
func Running(pid int) bool {
	_, state, ok := stat(pid)
	return ok && state != "Z"
}

// Comm is the name of pid's program, "" when there is no such process.
func Comm(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}

// WaitExited waits, at most until bound has passed, for every process of
// pids to have exited, and returns those still running then. A bound, not
// a timing assertion: a process still there by then was not stopped.
func WaitExited(pids []int, bound time.Duration) []int {
	deadline := time.Now().Add(bound)
	for {
		var left []int
		for _, p := range pids {
			if Running(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitFor polls, at most until bound has passed, for a descendant of pid
// whose program is named comm, and returns it (0 if none came).
func WaitFor(t testing.TB, pid int, comm string, bound time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		for _, p := range Descendants(t, pid) {
			if p != pid && Comm(p) == comm && Running(p) {
				return p
			}
		}
		if time.Now().After(deadline) {
			return 0
		}
		time.Sleep(20 * time.Millisecond)
	}
}
