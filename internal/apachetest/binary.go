package apachetest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ErrNoApache is returned by FindBinary when no Apache httpd is installed.
var ErrNoApache = errors.New("apachetest: no Apache httpd found (set APACHE_BIN, or install Debian's apache2)")

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

// FindBinary looks for Apache httpd: $APACHE_BIN if set, then apache2 and
// httpd on PATH, then /usr/sbin/apache2 and /usr/sbin/httpd (Debian keeps
// apache2 in /usr/sbin, which a non-root PATH often lacks). It is the pure
// twin of Binary: the environment, PATH lookup and file test are passed in.
func FindBinary(getenv func(string) string, lookPath func(string) (string, error), exists func(string) bool) (string, error) {
	if bin := getenv("APACHE_BIN"); bin != "" {
		if !exists(bin) {
			return "", &os.PathError{Op: "apachetest: APACHE_BIN", Path: bin, Err: os.ErrNotExist}
		}
		return bin, nil
	}
	for _, name := range []string{"apache2", "httpd"} {
		if p, err := lookPath(name); err == nil {
			return p, nil
		}
	}
	for _, p := range []string{"/usr/sbin/apache2", "/usr/sbin/httpd"} {
		if exists(p) {
			return p, nil
		}
	}
	return "", ErrNoApache
}

// ModuleDir returns where the modules of the httpd at bin live: Debian's
// /usr/lib/apache2/modules when bin is Debian's apache2, otherwise the
// modules folder beside bin's bin/ folder (the layout of a source build and
// of the official httpd image, /usr/local/apache2/{bin,modules}).
func ModuleDir(bin string, exists func(string) bool) string {
	const debian = "/usr/lib/apache2/modules"
	if filepath.Base(bin) == "apache2" && exists(debian) {
		return debian
	}
	return filepath.Join(filepath.Dir(filepath.Dir(bin)), "modules")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
