// Command gohello is a reference line of the cold-start table, not a peer:
// the smallest Go CGI program, which writes a fixed answer and exits. What
// it costs beyond the C floor is the Go runtime's own start (its CPU
// detection, heap, threads and signal handlers), which no Go program can
// skip.
package main

import "os"

func main() {
	os.Stdout.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\nhello\n")
}
