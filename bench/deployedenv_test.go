package bench_test

import (
	"strings"
	"testing"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/httpdconf"
)

// The benchmarks time cgigate with the environment Apache gives it: each
// variable of DeployedEnv must be one the rendered configuration sets.
func TestDeployedEnvIsWhatTheRenderedConfigurationSets(t *testing.T) {
	var conf strings.Builder
	if err := (httpdconf.Config{}).Render(&conf); err != nil {
		t.Fatal(err)
	}
	if len(bench.DeployedEnv) == 0 {
		t.Fatal("DeployedEnv is empty")
	}
	for _, kv := range bench.DeployedEnv {
		k, v, _ := strings.Cut(kv, "=")
		if line := "SetEnv " + k + " " + v; !strings.Contains(conf.String(), line) {
			t.Errorf("the rendered configuration has no %q:\n%s", line, conf.String())
		}
	}
}
