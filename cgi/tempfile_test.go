package cgi_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAKilledUploadLeavesNoFile runs a CGI child (this test binary, see
// TestMain) that stores a file part, and kills it half-way through the
// body, as Apache does when the client goes away: SIGTERM, then SIGKILL.
// Go runs no deferred call on either, so only a file that never had a name
// (or lost it at once) leaves nothing in TMPDIR.
func TestAKilledUploadLeavesNoFile(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
	}{{"SIGKILL", syscall.SIGKILL}, {"SIGTERM", syscall.SIGTERM}} {
		sig := tc.sig
		t.Run("a child that gets "+tc.name+" mid-upload leaves TMPDIR empty", func(t *testing.T) {
			dir := t.TempDir()
			head := "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big\"\r\n\r\n"
			const size = 1 << 20
			cmd := exec.Command(exe)
			cmd.Env = []string{
				uploadChildEnv + "=1", "TMPDIR=" + dir, "PATH=" + os.Getenv("PATH"),
				"GATEWAY_INTERFACE=CGI/1.1", "SERVER_PROTOCOL=HTTP/1.1", "REQUEST_METHOD=POST",
				"CONTENT_TYPE=multipart/form-data; boundary=B",
				fmt.Sprintf("CONTENT_LENGTH=%d", len(head)+size+len("\r\n--B--\r\n")),
			}
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			if _, err := stdin.Write([]byte(head + strings.Repeat("x", size/2))); err != nil {
				t.Fatal(err)
			}
			if !holdsFileIn(cmd.Process.Pid, dir) {
				t.Fatalf("the child never opened a file in %s", dir)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			stdin.Close()
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("left in TMPDIR after %v: %v", sig, left)
			}
		})
	}
}

// holdsFileIn polls the open descriptors of process pid until one is a
// file in dir (named or not: an unnamed file reads "dir/#inode
// (deleted)"), for at most 10 s.
func holdsFileIn(pid int, dir string) bool {
	fds := fmt.Sprintf("/proc/%d/fd", pid)
	for range 1000 {
		ents, _ := os.ReadDir(fds)
		for _, e := range ents {
			if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && strings.HasPrefix(target, dir+"/") {
				return true
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}
