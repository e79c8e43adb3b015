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
		{"an unknown MPM is reported by field", []string{"-mpm", "worker"}, 1, "invalid MPM"},
		{"a relative root is reported by field", []string{"-root", "srv"}, 1, "invalid ServerRoot"},
		{"a variable outside CGIGATE_ is reported", []string{"-env", "PATH=/bin"}, 1, "invalid Env"},
		{"a body timeout in part seconds is reported by field", []string{"-body-timeout", "2.5s"}, 1, "invalid BodyReadTimeout"},
		{"mod_cgi under event is reported by field", []string{"-cgi-module", "cgi"}, 1, "invalid CGIModule"},
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
			if tt.status != 0 && out.Len() != 0 {
				t.Errorf("printed a config on failure:\n%s", out.String())
			}
		})
	}
}

func TestCommandLine(t *testing.T) {
	clitest.CheckCommandLine(t, "", apachetest.BuildGo(t, "."), "httpdconf", "-root", "-docroot", "-mpm")
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
