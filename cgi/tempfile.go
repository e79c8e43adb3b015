package cgi

import "os"

// createUnlinked creates a temporary file in dir and removes its name at
// once, keeping the descriptor: the file's blocks are freed when the last
// descriptor closes, which the kernel does however the process ends. It is
// the fallback where O_TMPFILE is missing; a kill between the create and
// the remove, a few microseconds, would leave the file.
func createUnlinked(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, "cgigate-part-")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}
