package cli_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/cli"
)

func TestParseAnswersHelpAndVersionOnStdoutAndRefusesOnStderr(t *testing.T) {
	tests := []struct {
		name           string
		args           []string
		code           int // -1: Parse returns nil and the command goes on
		stdout, stderr string
	}{
		{"-help prints the usage on stdout and exits 0", []string{"-help"}, 0, "-addr", ""},
		{"-h prints the usage on stdout and exits 0", []string{"-h"}, 0, "-addr", ""},
		{"-help after another flag still prints the usage", []string{"-addr", "x", "-help"}, 0, "-version", ""},
		{"-version prints the command's name and version on stdout", []string{"-version"}, 0, "demo ", ""},
		{"an unknown flag is named with the usage on stderr, exit 2", []string{"-nope"}, 2, "", "flag provided but not defined: -nope"},
		{"a bad value is named on stderr, exit 2", []string{"-n", "x"}, 2, "", `invalid value "x" for flag -n`},
		{"good flags go on", []string{"-addr", "x", "word"}, -1, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("demo", flag.ContinueOnError)
			fs.String("addr", "", "where")
			fs.Int("n", 0, "how many")
			var out, errOut bytes.Buffer
			err := cli.Parse(fs, tt.args, &out, &errOut)
			if tt.code < 0 {
				if err != nil || out.Len()+errOut.Len() != 0 {
					t.Fatalf("Parse = %v, stdout %q, stderr %q; want nil and nothing printed", err, out.String(), errOut.String())
				}
				return
			}
			var ee *cli.ExitError
			if !errors.As(err, &ee) || ee.Code != tt.code || cli.Code(err) != tt.code {
				t.Fatalf("Parse = %v, want an *ExitError with code %d", err, tt.code)
			}
			if tt.stdout == "" && out.Len() != 0 || !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout %q, want it to hold %q", out.String(), tt.stdout)
			}
			if tt.stderr == "" && errOut.Len() != 0 || !strings.Contains(errOut.String(), tt.stderr) {
				t.Errorf("stderr %q, want it to hold %q", errOut.String(), tt.stderr)
			}
			if tt.code == 2 && strings.Count(errOut.String(), tt.stderr) != 1 {
				t.Errorf("stderr names the error %d times, want once: %q", strings.Count(errOut.String(), tt.stderr), errOut.String())
			}
			if fs.Output() != &errOut {
				t.Errorf("the flag set's output is not stderr after Parse")
			}
		})
	}
}

func TestCodeOfAnyOtherErrorIsUsage(t *testing.T) {
	if got := cli.Code(errors.New("-mpm: unknown")); got != cli.ExitUsage {
		t.Errorf("Code = %d, want %d", got, cli.ExitUsage)
	}
	if got := cli.Code(nil); got != cli.ExitOK {
		t.Errorf("Code(nil) = %d, want %d", got, cli.ExitOK)
	}
}

func TestFormatVersion(t *testing.T) {
	main := debug.Module{Path: "github.com/cgigate/cgigate", Version: "v1.2.0"}
	vcs := []debug.BuildSetting{
		{Key: "-tags", Value: "cgionly"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "1a2b3c4d5e6f"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"a module download names its version and the toolchain",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: main},
			"cgigate v1.2.0 (github.com/cgigate/cgigate, go1.26.8)"},
		{"a build in a checkout names the revision and its time",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: main.Path, Version: "(devel)"}, Settings: vcs},
			"cgigate (devel) (github.com/cgigate/cgigate, revision 1a2b3c4d5e6f, 2026-01-02T03:04:05Z, go1.26.8)"},
		{"a modified tree says so",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: main, Settings: append(vcs, debug.BuildSetting{Key: "vcs.modified", Value: "true"})},
			"cgigate v1.2.0 (github.com/cgigate/cgigate, revision 1a2b3c4d5e6f, 2026-01-02T03:04:05Z, modified, go1.26.8)"},
		{"an unmodified tree says nothing of it",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: main, Settings: append(vcs, debug.BuildSetting{Key: "vcs.modified", Value: "false"})},
			"cgigate v1.2.0 (github.com/cgigate/cgigate, revision 1a2b3c4d5e6f, 2026-01-02T03:04:05Z, go1.26.8)"},
		{"no build information is said, not invented",
			nil, "cgigate unknown version (the binary carries no build information)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cli.FormatVersion("cgigate", tt.info); got != tt.want {
				t.Errorf("FormatVersion = %q\nwant            %q", got, tt.want)
			}
		})
	}
}

func ExampleFormatVersion() {
	fmt.Println(cli.FormatVersion("urldecode", &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/cgigate/cgigate", Version: "v0.3.1"},
	}))
	// Output: urldecode v0.3.1 (github.com/cgigate/cgigate, go1.26.8)
}

func TestExitSaysEachMistakeOnce(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"a check of the command's own is printed with its name", errors.New("-n 0: want 1..10"), 2, "demo: -n 0: want 1..10\n"},
		{"what Parse printed already is not printed again", &cli.ExitError{Code: 2, Err: errors.New("flag provided but not defined: -x")}, 2, ""},
		{"-help exits 0 without a word on stderr", &cli.ExitError{Code: 0, Err: flag.ErrHelp}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			if code := cli.Exit(&errOut, "demo", tt.err); code != tt.code || errOut.String() != tt.stderr {
				t.Errorf("Exit = %d, stderr %q; want %d, %q", code, errOut.String(), tt.code, tt.stderr)
			}
		})
	}
}

func TestSetUsageDescribesTheCommandBeforeItsFlags(t *testing.T) {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.String("addr", "", "where")
	cli.SetUsage(fs, "usage: demo [flags]\n\nDemonstrates a usage.\n")
	var out, errOut bytes.Buffer
	if code := cli.Code(cli.Parse(fs, []string{"-help"}, &out, &errOut)); code != 0 || errOut.Len() != 0 {
		t.Fatalf("-help: exit %d, stderr %q", code, errOut.String())
	}
	const want = "usage: demo [flags]\n\nDemonstrates a usage.\n\nFlags:\n  -addr string\n"
	if !strings.HasPrefix(out.String(), want) {
		t.Errorf("-help printed\n%s\nwant it to start with\n%s", out.String(), want)
	}
}
