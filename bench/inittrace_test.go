package bench

import (
	"testing"
	"time"
)

// The lines are in the form runtime/proc.go (doInit) prints with
// GODEBUG=inittrace=1, copied from a run of cgigate.
const traceSample = `init internal/bytealg @0.002 ms, 0 ms clock, 0 bytes, 0 allocs
init runtime @0.024 ms, 0.081 ms clock, 0 bytes, 0 allocs
init golang.org/x/net/html @55 ms, 0.083 ms clock, 113144 bytes, 16 allocs
Status: 200 OK
`

func TestParseInitTrace(t *testing.T) {
	got, err := ParseInitTrace([]byte(traceSample))
	if err != nil {
		t.Fatal(err)
	}
	want := []Init{
		{"internal/bytealg", 2 * time.Microsecond, 0, 0, 0},
		{"runtime", 24 * time.Microsecond, 81 * time.Microsecond, 0, 0},
		{"golang.org/x/net/html", 55 * time.Millisecond, 83 * time.Microsecond, 113144, 16},
	}
	if len(got) != len(want) {
		t.Fatalf("ParseInitTrace = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestParseInitTraceRefusesAnotherForm(t *testing.T) {
	for _, line := range []string{
		"init runtime @0.024 ms, 0.081 ms clock, 0 bytes\n",
		"init runtime 0.024 ms, 0.081 ms clock, 0 bytes, 0 allocs\n",
		"init runtime @x ms, 0.081 ms clock, 0 bytes, 0 allocs\n",
	} {
		if _, err := ParseInitTrace([]byte(line)); err == nil {
			t.Errorf("ParseInitTrace(%q) gave no error", line)
		}
	}
}
