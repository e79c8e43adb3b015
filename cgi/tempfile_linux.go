package cgi

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openTemp opens a file in dir that has no name (open(2), O_TMPFILE): no
// moment exists at which a SIGTERM or SIGKILL from Apache, arriving when a
// client disconnects mid-upload, could leave it behind. A file system
// without O_TMPFILE (EOPNOTSUPP; EISDIR on kernels before 3.11) gets a
// named file unlinked at once instead.
func openTemp(dir string) (*os.File, error) {
	f, err := os.OpenFile(dir, os.O_RDWR|unix.O_TMPFILE, 0o600)
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) {
		return createUnlinked(dir)
	}
	return f, err
}
