package charset

import "sync"

// onceValue is a value computed on first use, like sync.OnceValue's
// function, but a package-level onceValue is static data (a zero sync.Once
// and a function literal) where calling sync.OnceValue at init allocates:
// the package's tables would cost every process start-up (GODEBUG=inittrace=1)
// whether it decodes anything or not.
type onceValue[T any] struct {
	once sync.Once
	f    func() T
	v    T
}

func (o *onceValue[T]) get() T {
	o.once.Do(func() { o.v = o.f() })
	return o.v
}
