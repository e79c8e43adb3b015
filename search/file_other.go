//go:build !unix

package search

import (
	"io"
	"os"
)

// segFile is an open index file.
type segFile struct{ f *os.File }

// fileID tells one file's contents from another's: a segment is never
// changed in place, so the same file, size and modification time are the
// same bytes.
type fileID struct{ fi os.FileInfo }

func (a fileID) same(b fileID) bool {
	return os.SameFile(a.fi, b.fi) && a.fi.Size() == b.fi.Size() && a.fi.ModTime().Equal(b.fi.ModTime())
}

// openFile opens path for reading.
func openFile(path string) (segFile, error) {
	f, err := os.Open(path)
	return segFile{f}, err
}

// identity is the identity of the file f has open.
func (f segFile) identity() (fileID, error) {
	fi, err := f.f.Stat()
	return fileID{fi}, err
}

func (a fileID) fileSize() int64 { return a.fi.Size() }

// readAt fills b from offset off, or fails.
func (f segFile) readAt(b []byte, off int64) error {
	_, err := f.f.ReadAt(b, off)
	if err == io.EOF {
		err = errShortRead
	}
	return err
}

// read reads into b from the current offset; 0 and no error at the end.
func (f segFile) read(b []byte) (int, error) {
	n, err := f.f.Read(b)
	if err == io.EOF {
		err = nil
	}
	return n, err
}

func (f segFile) close() { f.f.Close() }

// mapFile reads f's first size bytes where there is no mmap.
func (f segFile) mapFile(size int) ([]byte, error) {
	b := make([]byte, size)
	return b, f.readAt(b, 0)
}

func unmapFile([]byte) error { return nil }
