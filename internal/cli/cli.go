// Package cli is what every command of the module does alike with its
// command line: -help and -h print the usage on stdout and exit 0, since
// the usage was asked for and is the answer (so "cmd -help | less" works);
// a bad flag prints its error and the usage on stderr and exits 2; and
// -version prints, on stdout, the version the build recorded in the binary
// (runtime/debug.ReadBuildInfo): the module's version and, when the binary
// was built in a VCS checkout, the revision, its time and whether the tree
// was modified.
package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// Exit statuses of a command line answered by Parse.
const (
	ExitOK    = 0 // -help or -version was printed
	ExitUsage = 2 // a flag was refused
)

// ErrVersion is what an ExitError wraps after -version.
var ErrVersion = errors.New("version printed")

// ExitError says that Parse has answered or refused the command line and
// the command must exit with Code without doing anything else.
type ExitError struct {
	// Code is ExitOK after -help or -version, ExitUsage after a bad flag.
	Code int
	// Err is flag.ErrHelp, ErrVersion, or the flag set's error.
	Err error
}

func (e *ExitError) Error() string { return "exit " + fmt.Sprint(e.Code) + ": " + e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// Code returns the exit status an error from Parse asks for: its Code
// for an *ExitError, ExitUsage for any other error, ExitOK for nil.
func Code(err error) int {
	var ee *ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.Code
	}
	return ExitUsage
}

// Parse adds -version to fs and parses args. It returns nil when the
// command should go on, and otherwise an *ExitError after printing: the
// usage to stdout for -help, the flag's error and the usage to stderr for
// a bad flag, the version (Version with fs's name) to stdout for
// -version. Afterwards fs's output is stderr, for a usage error the
// command finds itself. fs must be ContinueOnError, and its Usage, if
// set, must write to fs.Output().
func Parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	version := fs.Bool("version", false, "print the version (module version, VCS revision and time) and exit")
	// The flag package prints to one output whether the usage was asked
	// for or earned by a mistake; which one it was is known only after.
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		stdout.Write(buf.Bytes())
		return &ExitError{Code: ExitOK, Err: err}
	case err != nil:
		stderr.Write(buf.Bytes())
		return &ExitError{Code: ExitUsage, Err: err}
	case *version:
		fmt.Fprintln(stdout, Version(fs.Name()))
		return &ExitError{Code: ExitOK, Err: ErrVersion}
	}
	return nil
}

// Version is the line -version prints for the command name, from the
// build information the go command recorded in this binary.
func Version(name string) string {
	info, _ := debug.ReadBuildInfo()
	return FormatVersion(name, info)
}

// FormatVersion is Version over given build information (nil when the
// binary has none), for instance
//
//	cgigate v1.2.0 (github.com/cgigate/cgigate, revision 1a2b3c4d5e6f, 2026-01-02T03:04:05Z, modified, go1.26.8)
//
// "(devel)" is the go command's version for a build from a checkout
// rather than from a module download.
func FormatVersion(name string, info *debug.BuildInfo) string {
	if info == nil {
		return name + " unknown version (the binary carries no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var parts []string
	if info.Main.Path != "" {
		parts = append(parts, info.Main.Path)
	}
	var rev, when, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		parts = append(parts, "revision "+rev)
	}
	if when != "" {
		parts = append(parts, when)
	}
	if modified == "true" {
		parts = append(parts, "modified")
	}
	if info.GoVersion != "" {
		parts = append(parts, info.GoVersion)
	}
	return name + " " + v + " (" + strings.Join(parts, ", ") + ")"
}

// Exit is what a command does with an error of its command line, from
// Parse or from its own checks after it: it prints err on stderr as
// "name: err" unless Parse has printed it already, so that a mistake is
// said once, and returns the exit status err asks for (Code).
func Exit(stderr io.Writer, name string, err error) int {
	var ee *ExitError
	if !errors.As(err, &ee) {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
	}
	return Code(err)
}

// SetUsage makes fs's usage the text, which begins "usage: NAME [flags]"
// and says in a paragraph what the command does, followed by "Flags:" and
// the flags, all on fs.Output(): stdout for -help, stderr after a bad
// flag (Parse).
func SetUsage(fs *flag.FlagSet, text string) {
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprint(w, strings.TrimRight(text, "\n")+"\n\nFlags:\n")
		fs.PrintDefaults()
	}
}
