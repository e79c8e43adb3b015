package mainstack

import (
	"os"
	"os/exec"
	"testing"
	"unsafe"
)

// reportVar makes the test binary, run again as a child, report from its
// main goroutine during initialisation, after this package's own init:
// where a CGI request's calls run.
const reportVar = "MAINSTACK_TEST_REPORT"

func init() {
	if os.Getenv(reportVar) == "" {
		return
	}
	// A stack that grows is copied whole to a new place: a local's
	// address tells whether it moved.
	var here byte
	before := uintptr(unsafe.Pointer(&here))
	deep(16) // 16 KiB of frames, as deep as the HTML page goes
	if uintptr(unsafe.Pointer(&here)) != before {
		os.Stdout.WriteString("moved")
	} else {
		os.Stdout.WriteString("stayed")
	}
	os.Exit(0)
}

// deep calls itself n times with a 1 KiB frame each.
//
//go:noinline
func deep(n int) byte {
	var frame [1 << 10]byte
	frame[n] = byte(n)
	if n == 0 {
		return frame[0]
	}
	return deep(n-1) + frame[n]
}

func TestARequestsDepthNeverMovesTheMainStack(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), reportVar+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the child failed: %v", err)
	}
	if string(out) != "stayed" {
		t.Errorf("16 KiB of calls on the main goroutine: its stack %s; want it grown to %d KiB before", out, Size>>10)
	}
}
