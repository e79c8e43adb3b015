package security

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/gobuild"
)

// TestLoadThroughApache runs internal/cmd/cgiload small through the package's
// Apache (event+mod_cgid): 500 requests at concurrency 32, a mix of
// ISINDEX, urlencoded, multipart and bad requests. cgiload fails unless
// every good request got 2xx with its fields, every bad one its own 4xx,
// no 5xx, and every form submission is in the record file exactly once
// and intact (count and checksum).
func TestLoadThroughApache(t *testing.T) {
	srv := apache(t, httpdconf.MPMEvent)
	bin := filepath.Join(t.TempDir(), "cgiload")
	if out, err := gobuild.Command(context.Background(), "", "../internal/cmd/cgiload", bin, "").CombinedOutput(); err != nil {
		t.Fatalf("go build ../internal/cmd/cgiload: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-url", srv.URL+"/cgi-bin/cgigate-load", "-record", filepath.Join(runDir, "load.jsonl"),
		"-n", "500", "-c", "32", "-timeout", "3m")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("cgiload: %v\n%s", err, tail(srv.ErrorLog(), 3000))
	}
	if !strings.Contains(string(out), "records: 300 expected, 300 found (0 missing, 0 duplicated)") {
		t.Errorf("cgiload's summary does not account for the 300 submissions")
	}
	for _, module := range []string{"cgi", "cgid"} {
		t.Run("with -apache it starts its own Apache (prefork+mod_"+module+") and loads it", func(t *testing.T) {
			needGateway(t)
			out, err := exec.Command(bin, "-apache", "-gateway", gateway, "-mpm", "prefork", "-cgi-module", module, "-n", "100", "-c", "32").CombinedOutput()
			t.Logf("%s", out)
			if err != nil || !strings.Contains(string(out), "records: 60 expected, 60 found (0 missing, 0 duplicated)") {
				t.Errorf("cgiload -apache: %v", err)
			}
			if banner := "(prefork, mod_" + module + ")"; !strings.Contains(string(out), banner) {
				t.Errorf("cgiload -apache did not say it started %s", banner)
			}
		})
	}
	t.Run("a target off this machine is refused before any request", func(t *testing.T) {
		for _, u := range []string{"http://192.0.2.1/cgi-bin/cgigate", "http://example.org/", "http://[2001:db8::1]/"} {
			out, err := exec.Command(bin, "-url", u, "-n", "1").CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "not a loopback address") {
				t.Errorf("%s: %v %s", u, err, out)
			}
		}
	})
}
