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
// Giving up the second P made in schedinit costs page faults for each
// span its allocation cache holds (package oneproc), so it is given up
// as early as a program can; only GOMAXPROCS in the environment avoids
// the second P altogether, which is why the Apache configurations that
// httpdconf renders and ships set GOMAXPROCS=1 for cgigate's requests
// with a body of at most SmallBody bytes (a test holds the two to each
// other). A large body keeps the default, where the GC's background
// workers on the other core shorten the request's wall time.
//
// One P is set first, by package oneproc, which imports nothing but
// runtime and so is initialised before the packages that allocate or
// start goroutines; this package, which needs syscall to read the
// environment, puts the runtime's choice back when the request is not a
// small CGI one. GOMAXPROCS in the environment still wins, as it does for
// any Go program.
package cgiprocs

import (
	"runtime"
	"strconv"
	"syscall"

	"github.com/cgigate/cgigate/internal/cgiprocs/oneproc"
)

// SmallBody is the largest CONTENT_LENGTH served on one P.
const SmallBody = 1 << 20

func init() {
	if Procs(syscall.Getenv) == 1 {
		return
	}
	// Put back what oneproc overrode: the environment's GOMAXPROCS as
	// the runtime read it, or else the runtime's default, which it keeps
	// following the CPU limit as if GOMAXPROCS had never been set.
	if _, ok := syscall.Getenv("GOMAXPROCS"); ok {
		runtime.GOMAXPROCS(oneproc.Default)
		return
	}
	runtime.SetDefaultGOMAXPROCS()
}

// Procs is the GOMAXPROCS for a process whose environment getenv reads:
// 1 for a CGI request (GATEWAY_INTERFACE set) whose body is at most
// SmallBody bytes, else 0: the runtime's own choice.
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
