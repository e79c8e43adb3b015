package cgiprocs

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestProcs(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want int
	}{
		{"a CGI GET runs on one P", map[string]string{"GATEWAY_INTERFACE": "CGI/1.1"}, 1},
		{"a CGI POST of a small body runs on one P", map[string]string{"GATEWAY_INTERFACE": "CGI/1.1", "CONTENT_LENGTH": "44"}, 1},
		{"a CGI POST of exactly SmallBody runs on one P", map[string]string{"GATEWAY_INTERFACE": "CGI/1.1", "CONTENT_LENGTH": strconv.Itoa(SmallBody)}, 1},
		{"a CGI POST of a large body keeps the default", map[string]string{"GATEWAY_INTERFACE": "CGI/1.1", "CONTENT_LENGTH": strconv.Itoa(SmallBody + 1)}, 0},
		{"a CONTENT_LENGTH that is not a number keeps the default", map[string]string{"GATEWAY_INTERFACE": "CGI/1.1", "CONTENT_LENGTH": "1e3"}, 0},
		{"GOMAXPROCS in the environment wins", map[string]string{"GATEWAY_INTERFACE": "CGI/1.1", "GOMAXPROCS": "2"}, 0},
		{"a process that is not a CGI request keeps the default", map[string]string{"CONTENT_LENGTH": "44"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Procs(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if got != tt.want {
				t.Errorf("Procs(%v) = %d, want %d", tt.env, got, tt.want)
			}
		})
	}
}

// The test binary links this package, so its init runs in a child of it
// as in cgigate: the child reports the GOMAXPROCS it runs with.
const reportVar = "CGIPROCS_TEST_REPORT"

func init() {
	if os.Getenv(reportVar) != "" {
		os.Stdout.WriteString(strconv.Itoa(runtime.GOMAXPROCS(0)))
		os.Exit(0)
	}
}

func childProcs(t *testing.T, env ...string) int {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append([]string{reportVar + "=1"}, env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("child said %q", out)
	}
	return n
}

func TestInitSetsOneProcForASmallCGIRequest(t *testing.T) {
	def := childProcs(t)
	if def < 2 {
		t.Skipf("GOMAXPROCS is %d here by default: one P changes nothing to observe", def)
	}
	if got := childProcs(t, "GATEWAY_INTERFACE=CGI/1.1", "CONTENT_LENGTH=44"); got != 1 {
		t.Errorf("a small CGI request runs with GOMAXPROCS %d, want 1", got)
	}
	if got := childProcs(t, "GATEWAY_INTERFACE=CGI/1.1", "CONTENT_LENGTH="+strconv.Itoa(SmallBody+1)); got != def {
		t.Errorf("a large CGI request runs with GOMAXPROCS %d, want the default %d", got, def)
	}
}

func TestInitPutsBackTheRuntimesChoice(t *testing.T) {
	def := childProcs(t)
	if def < 2 {
		t.Skipf("GOMAXPROCS is %d here by default: one P changes nothing to observe", def)
	}
	tests := []struct {
		name string
		env  []string
		want int
	}{
		{"a process that is not a CGI request keeps the runtime's default", nil, def},
		{"GOMAXPROCS in the environment wins outside CGI", []string{"GOMAXPROCS=3"}, 3},
		{"GOMAXPROCS in the environment wins for a small CGI request", []string{"GATEWAY_INTERFACE=CGI/1.1", "GOMAXPROCS=3"}, 3},
		{"a GOMAXPROCS the runtime ignores leaves its default", []string{"GOMAXPROCS=three"}, def},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := childProcs(t, tt.env...); got != tt.want {
				t.Errorf("GOMAXPROCS %d, want %d", got, tt.want)
			}
		})
	}
}
