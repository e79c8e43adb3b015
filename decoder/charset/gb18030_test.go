package charset

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestTheWordTestFindsEveryByte3AThru3F checks the eight-bytes-at-a-time
// test gbTrust relies on: a byte 3A-3F it missed would let an x/text
// misreading through.
func TestTheWordTestFindsEveryByte3AThru3F(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	var w [8]byte
	for range 200000 {
		for i := range w {
			w[i] = byte(rng.IntN(256))
		}
		if rng.IntN(2) == 0 {
			w[rng.IntN(8)] = byte(0x3A + rng.IntN(6))
		}
		want := false
		for _, b := range w {
			want = want || b >= 0x3A && b <= 0x3F
		}
		if got := hasByteIn3AThru3F(binary.LittleEndian.Uint64(w[:])); got != want {
			t.Fatalf("hasByteIn3AThru3F(% X) = %v, want %v", w, got, want)
		}
	}
}
