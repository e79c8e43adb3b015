package record

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/cgigate/cgigate/internal/atomicfile"
)

// HashError is content whose SHA-256 is not the one it was to be kept
// under: the upload changed between hashing and keeping, or the caller
// passed the wrong sum. Nothing is kept.
type HashError struct {
	Want, Got string
}

func (e *HashError) Error() string {
	return fmt.Sprintf("keep file: content hashes to %s, not %s", e.Got, e.Want)
}

// KeepFile stores content in dir under its SHA-256, sum (64 lower-case hex
// digits), and returns the path: dir/sum. A file of that name is already
// that content, so it is left as it is. Otherwise content is copied into a
// file that has no name yet (open(2) with O_TMPFILE in dir), hashed on the
// way, synced, and only then linked to its name (linkat(2) through
// /proc/self/fd), and dir is synced: a reader never finds a part of a
// file under a name, and a process killed mid-copy leaves nothing behind.
// Where O_TMPFILE or /proc is missing, a named temporary file in dir is
// renamed instead (a kill mid-copy then leaves a ".cgigate-keep-*" file).
//
// The upload's own temporary file (package cgi) is not linked into dir: it
// lives in TMPDIR, most often another file system than dir, where linkat
// fails (EXDEV); the copy costs one pass over a file no larger than
// CGIGATE_MAX_BODY, and checks the sum the record will name.
func KeepFile(dir string, content io.Reader, sum string) (string, error) {
	if b, err := hex.DecodeString(sum); err != nil || len(b) != sha256.Size || hex.EncodeToString(b) != sum {
		return "", fmt.Errorf("keep file: %q is not a SHA-256 in lower-case hex", sum)
	}
	path := filepath.Join(dir, sum)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		return path, nil
	}
	f, named, err := openKeep(dir)
	if err != nil {
		return "", err
	}
	defer func() {
		f.Close()
		if named {
			os.Remove(f.Name()) // gone already when renamed
		}
	}()
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), content); err != nil {
		return "", fmt.Errorf("keep file %s: %w", path, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return "", &HashError{Want: sum, Got: got}
	}
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("keep file %s: %w", path, err)
	}
	if named {
		err = os.Rename(f.Name(), path)
	} else {
		err = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(int(f.Fd())), unix.AT_FDCWD, path, unix.AT_SYMLINK_FOLLOW)
		if errors.Is(err, unix.EEXIST) {
			err = nil // kept meanwhile by another request: the same bytes
		}
	}
	if err != nil {
		return "", &fs.PathError{Op: "keep file", Path: path, Err: err}
	}
	return path, atomicfile.SyncDir(dir)
}

// openKeep opens an unnamed file in dir (O_TMPFILE), or, where the file
// system or /proc does not allow linking one, a named temporary file.
func openKeep(dir string) (f *os.File, named bool, err error) {
	f, err = os.OpenFile(dir, os.O_WRONLY|unix.O_TMPFILE, 0o640)
	if err == nil {
		if _, serr := os.Stat("/proc/self/fd/" + strconv.Itoa(int(f.Fd()))); serr == nil {
			return f, false, nil
		}
		f.Close()
	} else if !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.EISDIR) {
		return nil, false, fmt.Errorf("keep file: %w", err)
	}
	f, err = os.CreateTemp(dir, ".cgigate-keep-*")
	if err != nil {
		return nil, false, fmt.Errorf("keep file: %w", err)
	}
	if err := f.Chmod(0o640); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, false, fmt.Errorf("keep file: %w", err)
	}
	return f, true, nil
}
