package main

import (
	"slices"
	"strings"
	"testing"
)

func TestFlagsThatCannotBeRunAreRefused(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"an unknown part is refused", []string{"-only", "load,speed"}},
		{"a connection count that is not a number is refused", []string{"-conns", "4,x"}},
		{"a zero connection count is refused", []string{"-conns", "0"}},
		{"a negative body size is refused", []string{"-mem-urlencoded", "-1"}},
		{"an unknown flag is refused", []string{"-fast"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			if code := run(tt.args, &out, &errOut); code != 2 {
				t.Errorf("run(%q) = %d, want 2 (usage); stderr %q", tt.args, code, errOut.String())
			}
			if out.Len() != 0 {
				t.Errorf("run(%q) wrote a report: %q", tt.args, out.String())
			}
		})
	}
}

func TestLists(t *testing.T) {
	if got, err := ints(" 4, 16"); err != nil || !slices.Equal(got, []int{4, 16}) {
		t.Errorf("ints = %v, %v; want [4 16]", got, err)
	}
	if got, err := floats("1.25,10"); err != nil || !slices.Equal(got, []float64{1.25, 10}) {
		t.Errorf("floats = %v, %v; want [1.25 10]", got, err)
	}
}
