package record

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestNewID(t *testing.T) {
	at := time.Date(2026, 12, 2, 3, 4, 5, 678_901_234, time.UTC)
	t.Run("an id is a UUIDv7 in its canonical text, with now's millisecond", func(t *testing.T) {
		s := NewID(at)
		id, err := uuid.Parse(s)
		if err != nil || id.Version() != 7 || id.Variant() != uuid.RFC4122 || id.String() != s {
			t.Fatalf("%q: version %v, variant %v, %v", s, id.Version(), id.Variant(), err)
		}
		sec, nsec := id.Time().UnixTime()
		if ms := sec*1000 + nsec/1e6; ms != at.UnixMilli() {
			t.Errorf("%q holds %d ms, want %d", s, ms, at.UnixMilli())
		}
	})
	t.Run("ids made later sort later, within a millisecond too", func(t *testing.T) {
		last := NewID(at.Add(time.Hour))
		for _, d := range []time.Duration{time.Hour + time.Microsecond, time.Hour + 300*time.Microsecond, time.Hour + time.Millisecond, 2 * time.Hour} {
			s := NewID(at.Add(d))
			if s <= last {
				t.Errorf("at +%v: %s is not after %s", d, s, last)
			}
			last = s
		}
	})
	t.Run("ids of the same tick, or of a clock gone back, still rise and stay UUIDv7", func(t *testing.T) {
		// The fraction of the millisecond overflows after 4096 ids of
		// one tick: the carry goes into the millisecond.
		base := at.Add(3 * time.Hour)
		last := NewID(base)
		for i := range 5000 {
			now := base
			if i%7 == 0 {
				now = base.Add(-time.Second)
			}
			s := NewID(now)
			id, err := uuid.Parse(s)
			if err != nil || id.Version() != 7 || id.Variant() != uuid.RFC4122 || s <= last {
				t.Fatalf("id %d: %q after %q (version %v, variant %v, %v)", i, s, last, id.Version(), id.Variant(), err)
			}
			last = s
		}
	})
	t.Run("ids of the same time differ in their random bits", func(t *testing.T) {
		a, b := NewID(at.Add(4*time.Hour)), NewID(at.Add(4*time.Hour))
		if a[19:] == b[19:] {
			t.Errorf("%s and %s share their last 64 bits", a, b)
		}
	})
}

func TestIsID(t *testing.T) {
	tests := []struct {
		name, in string
		want     bool
	}{
		{"a UUIDv7 is an id", "0190b6f2-6c1e-7c3a-9d4e-0123456789ab", true},
		{"a UUID of another version, in capitals, is an id", "F47AC10B-58CC-4372-A567-0E02B2C3D479", true},
		{"the nil UUID is an id", "00000000-0000-0000-0000-000000000000", true},
		{"32 hex digits without dashes are not", "0190b6f26c1e7c3a9d4e0123456789ab", false},
		{"braces are not", "{0190b6f2-6c1e-7c3a-9d4e-0123456789ab}", false},
		{"a URN is not", "urn:uuid:0190b6f2-6c1e-7c3a-9d4e-0123456789ab", false},
		{"a dash out of place is not", "0190b6f-26c1e-7c3a-9d4e-0123456789ab", false},
		{"a letter past f is not", "0190b6f2-6c1e-7c3a-9d4e-0123456789ag", false},
		{"a digit short is not", "0190b6f2-6c1e-7c3a-9d4e-0123456789a", false},
		{"a trailing newline is not", "0190b6f2-6c1e-7c3a-9d4e-0123456789a\n", false},
		{"the empty string is not", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsID(tt.in); got != tt.want {
				t.Errorf("IsID(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
	t.Run("every id NewID makes is one", func(t *testing.T) {
		for range 100 {
			if s := NewID(time.Now()); !IsID(s) {
				t.Fatalf("IsID(%q) = false", s)
			}
		}
	})
}
