package apachetest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/cgigate/cgigate/internal/apache"
)

// ErrNoApache is returned by FindBinary when no Apache httpd is installed;
// it is apache.ErrNoApache, so errors.Is matches either.
var ErrNoApache = apache.ErrNoApache

// Binary returns the path of the Apache httpd binary to test with, or
// stops t through SkipOrFail when there is none.
func Binary(t testing.TB) string {
	t.Helper()
	bin, err := FindBinary(os.Getenv, exec.LookPath, fileExists)
	if err != nil {
		SkipOrFail(t, err.Error())
	}
	return bin
}

// FindBinary looks for Apache httpd as apache.FindBinary does ($APACHE_BIN,
// then PATH, then /usr/sbin); it is the pure twin of Binary.
func FindBinary(getenv func(string) string, lookPath func(string) (string, error), exists func(string) bool) (string, error) {
	return apache.FindBinary(getenv, lookPath, exists)
}

// ModuleDir returns where the modules of the httpd at bin live, as
// apache.ModuleDir does, for tests that write their own httpd.conf.
func ModuleDir(bin string, exists func(string) bool) string {
	return apache.ModuleDir(bin, exists)
}

// Account returns the User and Group Apache's children should run as
// (apache.Account), for tests that write their own httpd.conf.
func Account(euid, egid int) (user, group string) {
	return apache.Account(euid, egid)
}

// CopyExecutable copies the program src to dst with mode 0755 whatever
// the umask (apache.CopyExecutable), so that Apache's children can run it.
func CopyExecutable(src, dst string) error {
	return apache.CopyExecutable(src, dst)
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago
// (apache.FreePort).
func FreePort() (int, error) {
	return apache.FreePort()
}

// Dir returns a fresh folder under os.TempDir, mode 0755, removed when t
// ends. Unlike t.TempDir (mode 0700) it can hold files that Apache's
// www-data children read and run; it fails t when a folder above it is not
// searchable by others (apache.TempDir).
func Dir(t testing.TB) string {
	t.Helper()
	d, err := apache.TempDir("apachetest-")
	if err != nil {
		t.Fatalf("apachetest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
