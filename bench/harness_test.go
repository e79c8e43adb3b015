package bench

import (
	"errors"
	"slices"
	"testing"
)

func TestRun(t *testing.T) {
	t.Run("Fatal ends the function and cleanups run last first", func(t *testing.T) {
		var order []string
		reached := false
		err := Run("x", nil, func(tb testing.TB) {
			tb.Cleanup(func() { order = append(order, "first") })
			tb.Cleanup(func() { order = append(order, "second") })
			tb.Fatalf("stop %d", 1)
			reached = true
		})
		var re *RunError
		if !errors.As(err, &re) || re.Kind != "failed" || !slices.Equal(re.Messages, []string{"stop 1"}) {
			t.Errorf("err = %v, want a failed RunError with \"stop 1\"", err)
		}
		if reached {
			t.Error("the function went on after Fatalf")
		}
		if !slices.Equal(order, []string{"second", "first"}) {
			t.Errorf("cleanups ran %v, want second then first", order)
		}
	})
	t.Run("Skip is reported as skipped", func(t *testing.T) {
		err := Run("x", nil, func(tb testing.TB) { tb.Skip("no apache") })
		var re *RunError
		if !errors.As(err, &re) || re.Kind != "skipped" {
			t.Errorf("err = %v, want a skipped RunError", err)
		}
	})
	t.Run("a function that returns is no error", func(t *testing.T) {
		if err := Run("x", nil, func(tb testing.TB) { tb.Log("fine") }); err != nil {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("Error lets the function go on and fails the run", func(t *testing.T) {
		went := false
		err := Run("x", nil, func(tb testing.TB) { tb.Error("bad"); went = true })
		if err == nil || !went {
			t.Errorf("err = %v, went on = %v; want an error and true", err, went)
		}
	})
}
