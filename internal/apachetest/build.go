package apachetest

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cgigate/cgigate/internal/gobuild"
)

// BuildGo builds the Go main package in dir (a folder path, which may lie
// under a testdata folder; "." in a command's own test) as a static binary
// in a temporary folder and returns its path, ready to pass in Options.CGI.
// It fails t when the build fails.
func BuildGo(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatalf("apachetest: %v", err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(abs))
	if msg, err := gobuild.Command(context.Background(), abs, ".", out, "").CombinedOutput(); err != nil {
		t.Fatalf("apachetest: go build in %s: %v\n%s", dir, err, msg)
	}
	return out
}

// EchoCGI builds the echo CGI program of testdata/echocgi, which answers
// every request with a JSON EchoReport of its argv, environment and body.
func EchoCGI(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("apachetest: cannot locate the apachetest sources")
	}
	return BuildGo(t, filepath.Join(filepath.Dir(file), "testdata", "echocgi"))
}

// EchoReport is what the echo CGI prints (as JSON).
type EchoReport struct {
	// Args is argv[1:]: the ISINDEX words Apache passes (RFC 3875 4.4).
	// JSON replaces invalid UTF-8 in strings, so tests compare ArgBytes.
	Args []string `json:"args"`
	// ArgBytes holds the same words as raw bytes.
	ArgBytes [][]byte `json:"arg_bytes"`
	// QueryString is QUERY_STRING, as Apache set it.
	QueryString string `json:"query_string"`
	// Env is the whole environment the program received.
	Env map[string]string `json:"env"`
	// Body is what the program read from stdin (CONTENT_LENGTH bytes).
	Body []byte `json:"body"`
}
