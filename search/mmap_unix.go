//go:build unix

package search

import (
	"os"
	"syscall"
)

// mapFile maps f's first size bytes read-only: a query touches only the
// pages it reads (the header, the gram entries it looks up, its lists,
// the records it shows), and nothing is copied. Segments are never
// written after the manifest names them (a build writes new files), so
// the mapping does not change under the query.
func mapFile(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) error { return syscall.Munmap(b) }
