package httpdconf_test

import (
	"os"
	"os/exec"
	"regexp"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
)

// The drop-ins document every setting the gateway reads, with the defaults
// the gateway itself reports: its -help output is the reference, so a
// setting added, renamed or changed there fails here until the drop-ins
// follow.

var (
	helpSetting = regexp.MustCompile(`(?m)^\s+(CGIGATE_[A-Z_]+) \(default (.*)\)$`)
	anySetEnv   = regexp.MustCompile(`(?m)^\s*#?SetEnv (CGIGATE_[A-Z_]+) (\S+)$`)
)

func TestDropInsDocumentEverySettingWithTheGatewaysDefault(t *testing.T) {
	bin := apachetest.BuildGo(t, "../cmd/cgigate")
	out, _ := exec.Command(bin, "-help").CombinedOutput() // -help may exit non-zero
	defaults := map[string]string{}
	for _, m := range helpSetting.FindAllStringSubmatch(string(out), -1) {
		defaults[m[1]] = m[2]
	}
	if len(defaults) == 0 {
		t.Fatalf("cgigate -help lists no CGIGATE_ settings:\n%s", out)
	}
	for _, layout := range []string{"debian", "httpd-image"} {
		t.Run(layout+"/cgigate.conf names each setting once, with the gateway's default", func(t *testing.T) {
			data, err := os.ReadFile(snippet(layout))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, m := range anySetEnv.FindAllStringSubmatch(string(data), -1) {
				name, value := m[1], m[2]
				def, known := defaults[name]
				switch {
				case !known:
					t.Errorf("%s is not a setting cgigate reads", name)
				case seen[name]:
					t.Errorf("%s appears twice", name)
				case def != `""` && value != def:
					t.Errorf("%s shows %s, but cgigate's default is %s", name, value, def)
				}
				seen[name] = true
			}
			for name := range defaults {
				if !seen[name] {
					t.Errorf("%s (default %s) is missing", name, defaults[name])
				}
			}
		})
	}
}
