package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckFormsSaysWhatARequestWouldLog(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.yaml", "forms:\n  contact:\n    charset: euc-jp\n    fields:\n      name: {required: true}\n    redirect: /thanks.html\n    record: true\n")
	bad := write("bad.yaml", "forms:\n  contact:\n    fields:\n      age: {kind: numbr}\n      x: {min: 1}\n")
	tests := []struct {
		name       string
		file       string
		env        []string
		exit       int
		out, errs  []string
		errsAbsent []string
	}{
		{"a good file lists its forms and exits 0", good, []string{"CGIGATE_RECORD=/srv/rec.jsonl"}, 0,
			[]string{good + ": form contact at /cgi-bin/cgigate/contact, POST, euc-jp, name (text); 303 to /thanks.html"}, nil, []string{"warning"}},
		{"a recording form without CGIGATE_RECORD is a warning, not a fault", good, nil, 0,
			nil, []string{good + ": warning: forms.contact.record is true but CGIGATE_RECORD is not set"}, nil},
		{"a bad file names every fault's line and key and exits 1", bad, nil, 1,
			nil, []string{bad + `:4: forms.contact.fields.age.kind: unknown kind "numbr"`, bad + ":5: forms.contact.fields.x.min: min bounds a number's value"}, nil},
		{"a missing file exits 1", filepath.Join(dir, "none.yaml"), nil, 1, nil, []string{"no such file"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := execCommand("-check-forms", tt.file)
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, tt.env...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.exit {
				t.Errorf("exit %d; want %d\nstdout %s\nstderr %s", code, tt.exit, out.String(), errb.String())
			}
			for _, w := range tt.out {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout %q lacks %q", out.String(), w)
				}
			}
			for _, w := range tt.errs {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr %q lacks %q", errb.String(), w)
				}
			}
			for _, w := range tt.errsAbsent {
				if strings.Contains(errb.String(), w) {
					t.Errorf("stderr %q holds %q", errb.String(), w)
				}
			}
		})
	}
}
