//go:build !unix

package search

import (
	"io"
	"os"
)

// mapFile reads f's first size bytes where there is no mmap.
func mapFile(f *os.File, size int) ([]byte, error) {
	b := make([]byte, size)
	_, err := io.ReadFull(f, b)
	return b, err
}

func unmapFile([]byte) error { return nil }
