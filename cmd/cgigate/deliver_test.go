//go:build !cgionly

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDeliverHelpDocumentsEveryFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(nil, []string{"cgigate", "deliver", "-help"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d", code)
	}
	help := out.String() + errOut.String()
	var names []string
	for _, line := range strings.Split(help, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(line, "  -") {
			names = append(names, strings.TrimPrefix(f[0], "-"))
		}
	}
	for _, want := range []string{"record", "state", "status", "postgres", "webhook", "webhook-secret-file", "webhook-attempts", "webhook-timeout", "smtp", "mail-from", "mail-to", "reply-to", "batch", "log-every", "poll", "backoff-max"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("-help does not document -%s:\n%s", want, help)
		}
	}
	if !strings.Contains(help, "httpdconf/systemd/cgigate-deliver.service") {
		t.Errorf("-help does not name the systemd unit")
	}
}

func TestDeliverRefusesToRunWithoutATarget(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no target at all", []string{"-record", "/nonexistent"}, "no target"},
		{"mail without recipients", []string{"-record", "/nonexistent", "-smtp", "127.0.0.1:25", "-mail-from", "a@example.org"}, "-smtp needs"},
		{"no record file", []string{"-postgres", "postgres://x"}, "usage: cgigate deliver"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(nil, append([]string{"cgigate", "deliver"}, tt.args...), strings.NewReader(""), &out, &errOut)
			if code != 2 || !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut.String(), tt.want)
			}
		})
	}
}

func TestDeliverStatusPrintsTheBacklogOfEveryTarget(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "records")
	line := `{"id":"0190a000-0000-7000-8000-000000000001","time":"2025-01-01T00:00:00Z","fields":[]}` + "\n"
	if err := os.WriteFile(records, []byte(line+line), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	args := []string{"cgigate", "deliver", "-status", "-record", records, "-state", filepath.Join(dir, "state"),
		"-postgres", "postgres://127.0.0.1:1/x", "-webhook", "http://127.0.0.1:1/hook", "-smtp", "127.0.0.1:1", "-mail-from", "a@example.org", "-mail-to", "b@example.org"}
	if code := run(nil, args, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("status:\n%s\nwant a line for each of the three targets", out.String())
	}
	for i, prefix := range []string{"postgres: ", "webhook-", "mail: "} {
		if !strings.HasPrefix(lines[i], prefix) || !strings.Contains(lines[i], fmt.Sprintf("0 delivered, 0 dead-lettered, 0 malformed; backlog 2 records (%d bytes)", 2*len(line))) {
			t.Errorf("status line %q, want %q... with a backlog of 2 records", lines[i], prefix)
		}
	}
}
