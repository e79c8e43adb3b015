package main

import (
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/cli/clitest"
)

func TestCommandLine(t *testing.T) {
	clitest.CheckCommandLine(t, "", bin, "cgigate", "usage: ", "-http", "-index", "CGIGATE_CHARSET (default")
	t.Run("no mode is a usage error on stderr, exit 2", func(t *testing.T) {
		r := clitest.Run(t, "", nil, bin)
		if r.Code != 2 || r.Stdout != "" || !strings.Contains(r.Stderr, "usage: ") {
			t.Errorf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
		}
	})
}

// Apache's error log gets one line for a request that meets a bad
// configuration: the 500's, which names the setting.
func TestABadConfigurationIsLoggedOncePerRequest(t *testing.T) {
	for _, bad := range [][2]string{{"CGIGATE_NCR", "2"}, {"CGIGATE_CHARSET", "x-klingon"}} {
		t.Run(bad[0]+"="+bad[1]+" is one line on stderr", func(t *testing.T) {
			a := get(t, "a=1", bad[0], bad[1])
			if a.status != 500 || strings.Count(a.stderr, bad[0]) != 1 || strings.Count(a.stderr, "\n") != 1 {
				t.Errorf("status %d, stderr %q; want 500 and one line naming %s", a.status, a.stderr, bad[0])
			}
		})
	}
}
