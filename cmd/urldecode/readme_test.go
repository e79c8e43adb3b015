package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeExample is one "$ urldecode ..." line of README.md with what the
// README shows it printing.
type readmeExample struct {
	line       string   // as written, after "$ "
	args       []string // its arguments, the shell's quotes removed
	exitStatus bool     // it ends in `; echo "exit $?"`
	want       string
}

// readmeExamples reads README.md's fenced blocks: each "$ urldecode" line
// and the lines up to the next "$" or the block's end, and each
// "$ cat FILE" line with FILE's content, written into dir.
func readmeExamples(t *testing.T, dir string) []readmeExample {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var exs []readmeExample
	blocks := strings.Split(string(data), "```")
	for i := 1; i < len(blocks); i += 2 { // the odd pieces are inside fences
		var cur *readmeExample
		var cat string // the file a "$ cat FILE" block writes
		var catText strings.Builder
		flush := func() {
			if cat != "" {
				if err := os.WriteFile(filepath.Join(dir, cat), []byte(catText.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cat, cur = "", nil
			catText.Reset()
		}
		for line := range strings.Lines(blocks[i]) {
			cmd, isCmd := strings.CutPrefix(line, "$ ")
			switch {
			case isCmd:
				flush()
				cmd = strings.TrimSuffix(cmd, "\n")
				if f, ok := strings.CutPrefix(cmd, "cat "); ok {
					cat = f
					continue
				}
				ex := readmeExample{line: cmd}
				words, ok := strings.CutSuffix(cmd, `; echo "exit $?"`)
				ex.exitStatus = ok
				ex.args = shellWords(t, words)
				if ex.args[0] != "urldecode" {
					t.Fatalf("README.md: %q is not a urldecode command", cmd)
				}
				ex.args = ex.args[1:]
				exs = append(exs, ex)
				cur = &exs[len(exs)-1]
			case cat != "":
				catText.WriteString(line)
			case cur != nil:
				cur.want += line
			}
		}
		flush()
	}
	return exs
}

// shellWords splits a command line as sh does for the README's examples:
// words separated by spaces, single-quoted text taken as it is.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
			}
			inWord = false
		case strings.ContainsRune(`"$;|&<>\`+"`", r):
			t.Fatalf("README.md: %q needs more of a shell than shellWords is", s)
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("README.md: %q has an unclosed quote", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// Each example of README.md prints what the README shows, stdout and
// stderr together as a terminal shows them (stdout is flushed before a
// message goes to stderr), and the exit status where it shows one.
func TestREADMEExamplesPrintWhatTheyShow(t *testing.T) {
	dir := t.TempDir()
	exs := readmeExamples(t, dir)
	if len(exs) < 10 {
		t.Fatalf("README.md: %d examples found, want the dozen or so it has", len(exs))
	}
	t.Chdir(dir) // "-log access.log" reads the file the README cats
	for _, ex := range exs {
		t.Run(ex.line, func(t *testing.T) {
			cmd := exec.Command(bin, ex.args...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			if ex.exitStatus {
				fmt.Fprintf(&out, "exit %d\n", cmd.ProcessState.ExitCode())
			}
			if got := out.String(); got != ex.want {
				t.Errorf("urldecode %q printed\n%s\nREADME.md shows\n%s", ex.args, got, ex.want)
			}
		})
	}
}
