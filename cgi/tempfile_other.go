//go:build !linux

package cgi

import "os"

// openTemp opens a temporary file in dir whose name is already removed.
func openTemp(dir string) (*os.File, error) { return createUnlinked(dir) }
