//go:build unix

package search

import (
	"os"
	"syscall"
)

// segFile is an open index file, a bare descriptor rather than an
// *os.File: os.Open offers every file it opens to the runtime's poller,
// whose first use in a process makes an epoll instance and an eventfd
// and allocates its descriptors' block, only to be refused for a regular
// file (a dozen system calls and a few fresh pages in a CGI process that
// answers one search); and a File allocates itself and its cleanup.
type segFile int

// fileID tells one file's contents from another's: a segment is never
// changed in place, so the same file, size and modification time are the
// same bytes.
type fileID struct {
	dev, ino    uint64
	size, mtime int64
}

func (a fileID) same(b fileID) bool { return a == b }

func (a fileID) fileSize() int64 { return a.size }

// openFile opens path for reading; errors are *os.PathError, as
// os.Open's.
func openFile(path string) (segFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return segFile(fd), nil
	}
}

// identity is the identity of the file f has open.
func (f segFile) identity() (fileID, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f), &st); err != nil {
		return fileID{}, err
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size, mtime: mtime(&st)}, nil
}

// readAt fills b from offset off, or fails.
func (f segFile) readAt(b []byte, off int64) error {
	for len(b) > 0 {
		n, err := syscall.Pread(int(f), b, off)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return errShortRead
		}
		b, off = b[n:], off+int64(n)
	}
	return nil
}

// read reads into b from the current offset; 0 and no error at the end.
func (f segFile) read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}

func (f segFile) close() { syscall.Close(int(f)) }

// mapFile maps f's first size bytes read-only: a query touches only the
// pages it reads (the header, the gram entries it looks up, its lists,
// the records it shows), and nothing is copied. Segments are never
// written after the manifest names them (a build writes new files), so
// the mapping does not change under the query.
func (f segFile) mapFile(size int) ([]byte, error) {
	return syscall.Mmap(int(f), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) error { return syscall.Munmap(b) }
