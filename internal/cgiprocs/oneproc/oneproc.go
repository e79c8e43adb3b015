// Package oneproc sets GOMAXPROCS to 1 among the first package
// initialisations of the program, and keeps what the runtime had chosen
// in Default, for package cgiprocs to put back when the process is not a
// small CGI request.
//
// The second P the runtime makes at start caches a span of each size
// class the inits allocate while the main goroutine runs on it; giving
// the P up pushes every one of them into a fresh block of the heap's
// lists. cgiprocs can decide only once syscall is initialised, fifteenth
// or so in the order: setting one P there cost 20 page faults (13 of them
// those pushes, perf record on runtime.(*spanSet).push). This package
// imports runtime alone, so it is initialised among the first, while the
// second P holds next to nothing: 10–18 page faults fewer a small CGI
// request (BENCHMARKS.md). A process that keeps the default pays a second
// change of GOMAXPROCS at start, once.
package oneproc

import "runtime"

// Default is GOMAXPROCS as the runtime set it at start: its default, or
// the GOMAXPROCS environment variable.
var Default = runtime.GOMAXPROCS(1)
