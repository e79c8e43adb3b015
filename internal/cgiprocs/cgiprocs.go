// Package cgiprocs runs a cgigate CGI process on one P (GOMAXPROCS=1) when
// its request is small. Imported for its init by cmd/cgigate only: a
// library must not change its program's scheduler.
//
// A CGI process answers one request with one goroutine of its own. With a
// second P, every goroutine the runtime or an init starts (os's finalizer
// goroutine, unique's cleanup goroutine that net/netip's init brings, the
// body's deadline pump) wakes a second thread that spins, finds nothing
// and sleeps again: a context switch each time. On one P the voluntary
// switches of a request fell by a sixth to a third (BENCHMARKS.md).
// Page faults stay even: the second P made in schedinit has filled an
// allocation cache by the time an init can run, and returning it costs
// about as many faults as the rest of the process then saves; only
// GOMAXPROCS in the environment avoids both. A large body keeps the
// default, where the GC's background workers on the other core shorten
// the request's wall time.
//
// The setting is made in an init rather than in main so that it comes
// before the inits of the packages that start goroutines: packages are
// initialised in dependency order, lexically among ready ones, and this
// one depends on syscall and strconv alone. GOMAXPROCS in the environment
// still wins, as it does for any Go program.
package cgiprocs

import (
	"runtime"
	"strconv"
	"syscall"
)

// SmallBody is the largest CONTENT_LENGTH served on one P.
const SmallBody = 1 << 20

func init() {
	runtime.GOMAXPROCS(Procs(syscall.Getenv))
}

// Procs is the GOMAXPROCS for a process whose environment getenv reads:
// 1 for a CGI request (GATEWAY_INTERFACE set) whose body is at most
// SmallBody bytes, else 0, which leaves the setting as it is.
func Procs(getenv func(string) (string, bool)) int {
	if _, ok := getenv("GATEWAY_INTERFACE"); !ok {
		return 0
	}
	if _, ok := getenv("GOMAXPROCS"); ok {
		return 0
	}
	if s, ok := getenv("CONTENT_LENGTH"); ok && s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n > SmallBody {
			return 0
		}
	}
	return 1
}
