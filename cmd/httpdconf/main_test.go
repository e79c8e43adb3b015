package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/cli/clitest"
)

func TestRunExitStatus(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"an unknown flag is a usage error", []string{"-nope"}, 2, "flag provided but not defined"},
		{"a stray argument is a usage error", []string{"extra"}, 2, "unexpected arguments"},
		{"an -env without = is a usage error", []string{"-env", "CGIGATE_NCR"}, 2, "NAME=VALUE"},
		{"an unknown MPM is a usage error naming the field", []string{"-mpm", "worker"}, 2, "invalid MPM"},
		{"a relative root is a usage error naming the field", []string{"-root", "srv"}, 2, "invalid ServerRoot"},
		{"a variable outside CGIGATE_ is a usage error", []string{"-env", "PATH=/bin"}, 2, "invalid Env"},
		{"-env FOO=1 is a usage error like -env FOO", []string{"-env", "FOO=1"}, 2, "invalid Env"},
		{"a port out of range is a usage error naming the field", []string{"-port", "70000"}, 2, "invalid Port"},
		{"a port that is no number is a usage error", []string{"-port", "x"}, 2, "invalid value"},
		{"a host that is no IP address is a usage error naming the field", []string{"-host", "example.org"}, 2, "invalid Host"},
		{"a body timeout in part seconds is a usage error naming the field", []string{"-body-timeout", "2.5s"}, 2, "invalid BodyReadTimeout"},
		{"mod_cgi under event is a usage error naming the field", []string{"-cgi-module", "cgi"}, 2, "invalid CGIModule"},
		{"defaults render", nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if got := run(tt.args, &out, &errOut); got != tt.status {
				t.Errorf("exit status %d, want %d (stderr %q)", got, tt.status, errOut.String())
			}
			if !strings.Contains(errOut.String(), tt.stderr) {
				t.Errorf("stderr %q lacks %q", errOut.String(), tt.stderr)
			}
			// One error, said once: a value the configuration refuses
			// is one line, not the line and the usage.
			if strings.HasPrefix(tt.stderr, "invalid ") && tt.stderr != "invalid value" && strings.Count(errOut.String(), "\n") != 1 {
				t.Errorf("stderr is not one line:\n%s", errOut.String())
			}
			if tt.status != 0 && out.Len() != 0 {
				t.Errorf("printed a config on failure:\n%s", out.String())
			}
		})
	}
}

func TestCommandLine(t *testing.T) {
	clitest.CheckCommandLine(t, "", apachetest.BuildGo(t, "."), "httpdconf", "usage: httpdconf [", "-root", "-docroot", "-mpm")
}

func TestPrintedConfigPassesApacheSyntaxCheck(t *testing.T) {
	bin := apachetest.Binary(t)
	for _, args := range [][]string{
		{"-mpm", "event"},
		{"-mpm", "prefork", "-env", "CGIGATE_CHARSET=Shift_JIS", "-limit-body", "10485760", "-body-timeout", "10s"},
		{"-fcgi", "127.0.0.1:9000", "-port", "18081"},
		{"-mpm", "prefork", "-cgi-module", "cgid"},
	} {
		t.Run(strings.Join(args, " ")+" is accepted by apache2 -t", func(t *testing.T) {
			root := t.TempDir()
			for _, d := range []string{"htdocs", "cgi", "logs"} {
				os.Mkdir(filepath.Join(root, d), 0o755)
			}
			var out, errOut bytes.Buffer
			args := append([]string{"-root", root, "-cgi-bin", filepath.Join(root, "cgi")}, args...)
			if run(args, &out, &errOut) != 0 {
				t.Fatalf("run: %s", errOut.String())
			}
			conf := filepath.Join(root, "httpd.conf")
			os.WriteFile(conf, out.Bytes(), 0o644)
			if msg, err := exec.Command(bin, "-t", "-f", conf).CombinedOutput(); err != nil {
				t.Fatalf("apache2 -t: %v\n%s", err, msg)
			}
		})
	}
}
