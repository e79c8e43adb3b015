//go:build unix && !(darwin || freebsd || netbsd)

package search

import "syscall"

// mtime is st's modification time in nanoseconds: Stat_t names it Mtim
// here, Mtimespec on macOS, FreeBSD and NetBSD (stat_mtimespec.go).
func mtime(st *syscall.Stat_t) int64 { return st.Mtim.Nano() }
