package apache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// TempDir makes a fresh folder under os.TempDir whose name starts with
// prefix, mode 0755. Unlike os.MkdirTemp (mode 0700) it can hold a
// ServerRoot whose files Apache's www-data children read and run. When
// this process is root, Apache runs its children as www-data, so every
// folder above it must be searchable by others: otherwise TempDir removes
// the folder again and returns a *ReachError naming the folder in the way
// (a private TMPDIR, typically).
func TempDir(prefix string) (string, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	if os.Geteuid() == 0 {
		if err := reachable(dir, os.Stat); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

// ReachError reports a folder above a ServerRoot that www-data cannot
// search, so that Apache's children could not reach their programs.
type ReachError struct {
	// Path is the folder others cannot search; Mode its permissions.
	Path string
	Mode fs.FileMode
}

func (e *ReachError) Error() string {
	return fmt.Sprintf("apache: %s is not searchable by www-data (mode %v); set TMPDIR to a folder it can reach, such as /tmp", e.Path, e.Mode)
}

// reachable checks that every folder above dir lets others search it
// (the x bit for others); stat is passed in so that a test can make any
// tree of modes.
func reachable(dir string, stat func(string) (fs.FileInfo, error)) error {
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		fi, err := stat(d)
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return &ReachError{Path: d, Mode: fi.Mode().Perm()}
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// Mkdir makes dir and its parents and sets dir's mode to mode whatever the
// umask (os.MkdirAll's mode is filtered by it), so that Apache's children
// (another user when this process is root) can read or write in it.
func Mkdir(dir string, mode fs.FileMode) error {
	if err := os.MkdirAll(dir, mode); err != nil {
		return err
	}
	return os.Chmod(dir, mode)
}

// CopyExecutable copies the program src to dst with mode 0755, whatever
// the umask, so that Apache's children can run it.
func CopyExecutable(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		return err
	}
	return os.Chmod(dst, 0o755) // WriteFile's mode is filtered by the umask
}

// writeStatic writes data at the slash-separated path name under docRoot,
// mode 0644, refusing a name that would leave docRoot.
func writeStatic(docRoot, name string, data []byte) error {
	rel := filepath.FromSlash(name)
	if !filepath.IsLocal(rel) {
		return errors.New("apache: static file name " + strconv.Quote(name) + " leaves DocumentRoot")
	}
	p := filepath.Join(docRoot, rel)
	if err := Mkdir(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return err
	}
	return os.Chmod(p, 0o644)
}
