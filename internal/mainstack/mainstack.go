// Package mainstack grows the main goroutine's stack once, among the first
// package initialisations, to the Size a CGI request reaches, instead of
// step by step while the request runs.
//
// A goroutine starts on 2 KiB and doubles its stack when a call needs
// more; the gateway's main goroutine went 2 → 4 → 8 → 16 KiB, the last
// in html/template's escaping. Each of the sizes under 32 KiB comes from
// the runtime's stack pool, which carves a fresh 32 KiB span for the first
// stack of a size and writes a link into every piece of it, and each
// growth copies the stack, unwinding it through the function tables: 14
// page faults for the spans and about 10 more for the tables, in a
// process that lives for one request. A stack of 32 KiB is one span of
// the heap, touched from the top down as the request would touch it.
// Measured on the four requests BENCHMARKS.md counts, two sets of 30–40
// interleaved runs: 18–28 page faults fewer a process (FORM GET with HTML
// out 391 → 373).
//
// It imports nothing, so that it initialises before packages whose inits
// run deep, and it costs every mode of the binary 32 KiB of address space
// on one goroutine: the stack shrinks back only at a garbage collection,
// which a CGI process rarely reaches.
package mainstack

// Size is the stack the main goroutine has once this package is
// initialised: enough for any of the counted requests, which never grow
// it again (perf probe on runtime.copystack).
const Size = 32 << 10

func init() { grow(0) }

// grow's frame is more than half of Size and well under it, so that the
// runtime's doubling, from whatever the stack is, stops at Size. The
// array is zeroed, which touches the top of the new stack: the pages a
// request uses first.
//
//go:noinline
func grow(i int) byte {
	var frame [Size * 5 / 8]byte
	return frame[i]
}
