// Package atomicfile replaces a file so that a reader sees the old one or
// the new one, never a part, and a power cut leaves one of the two.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces the file at path with b: a temporary file in the same
// folder, named by pattern as os.CreateTemp names it, written with mode
// perm and fsync'd, renamed over path (atomic within a file system), and
// the folder fsync'd so that the rename itself is durable. On an error
// the temporary file is removed.
func Write(path, pattern string, b []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(perm) // whatever the umask
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// SyncDir fsyncs the folder dir: the names created, renamed or removed in
// it are durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
