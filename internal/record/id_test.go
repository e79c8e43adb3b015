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
