//go:build darwin || freebsd || netbsd

package search

import "syscall"

// mtime is st's modification time in nanoseconds: Stat_t names it
// Mtimespec here (stat_mtim.go has the other Unixes').
func mtime(st *syscall.Stat_t) int64 { return st.Mtimespec.Nano() }
