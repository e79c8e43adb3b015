package apache

import (
	"errors"
	"os"
	"path/filepath"
)

// ErrNoApache is returned by FindBinary when no Apache httpd is installed,
// so that a caller can tell "not installed" (skip, or fall back to another
// server) from a wrong APACHE_BIN (a mistake to report).
var ErrNoApache = errors.New("apache: no Apache httpd found (set APACHE_BIN, or install Debian's apache2)")

// FindBinary looks for Apache httpd: $APACHE_BIN if set, then apache2 and
// httpd on PATH, then /usr/sbin/apache2 and /usr/sbin/httpd (Debian keeps
// apache2 in /usr/sbin, which a non-root PATH often lacks). An APACHE_BIN
// naming no file is an error, not a fallback: the user asked for that
// binary. The environment, PATH lookup and file test are passed in, so that
// tests can make any machine.
func FindBinary(getenv func(string) string, lookPath func(string) (string, error), exists func(string) bool) (string, error) {
	if bin := getenv("APACHE_BIN"); bin != "" {
		if !exists(bin) {
			return "", &os.PathError{Op: "APACHE_BIN", Path: bin, Err: os.ErrNotExist}
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

// ModuleDir returns where the modules of the httpd at bin live, for
// httpdconf.Config.ModuleDir: Debian's /usr/lib/apache2/modules when bin is
// Debian's apache2, otherwise the modules folder beside bin's bin/ folder
// (the layout of a source build and of the official httpd image,
// /usr/local/apache2/{bin,modules}).
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
