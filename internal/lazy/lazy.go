// Package lazy holds values computed on first use, for the tables and
// templates a CGI process may never need. A process starts for every
// request, so what its packages do at init is paid on every request
// (GODEBUG=inittrace=1).
package lazy

import "sync"

// Value is the value New computes, computed on the first Get. It is what
// sync.OnceValue gives, but a package-level Value is static data (a
// function and a zero sync.Once), where calling sync.OnceValue in a
// package-level declaration allocates at init. If New panics, Get panics
// and later Gets return the zero value: New must not fail.
type Value[T any] struct {
	New  func() T
	once sync.Once
	v    T
}

// Get returns New's value, computing it on the first call.
func (l *Value[T]) Get() T {
	l.once.Do(func() { l.v = l.New() })
	return l.v
}
