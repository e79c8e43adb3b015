package lazy

import (
	"sync"
	"testing"
)

func TestGetComputesOnceOnFirstUse(t *testing.T) {
	calls := 0
	v := &Value[int]{New: func() int { calls++; return 42 }}
	if calls != 0 {
		t.Fatal("computed before Get")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := v.Get(); got != 42 {
				t.Errorf("Get = %d", got)
			}
		})
	}
	wg.Wait()
	if calls != 1 {
		t.Errorf("New called %d times, want 1", calls)
	}
}

// A package-level Value costs nothing at init: the point of the type.
var atInit = Value[[]int]{New: func() []int { return make([]int, 1<<10) }}

// computedAtInit is taken once every package-level variable is set, and
// before any test runs, so that the test holds under -count=N too.
var computedAtInit bool

func init() { computedAtInit = atInit.v != nil }

func TestAPackageLevelValueAllocatesNothingUntilGet(t *testing.T) {
	if computedAtInit {
		t.Fatal("computed at init")
	}
	if n := len(atInit.Get()); n != 1<<10 {
		t.Fatalf("len %d", n)
	}
}
