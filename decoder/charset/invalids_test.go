package charset

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestDecodeStringSumsUpWhatDecodeLists holds DecodeString's Invalids to
// the full list Decode gives: the same text, count and bytes, and the
// list's first KeptInvalids entries.
func TestDecodeStringSumsUpWhatDecodeLists(t *testing.T) {
	for _, name := range append([]string{"utf-8", "windows-1252"}, multibyte...) {
		t.Run(name, func(t *testing.T) {
			c := MustLookup(name)
			rng := rand.New(rand.NewPCG(11, uint64(len(name))))
			for i := range 3000 {
				src := randomInput(rng, 40)
				if i%50 == 0 {
					src = randomInput(rng, 4*pieceSizes[0])
				}
				wantText, list := c.Decode(src)
				gotText, got := c.DecodeString(string(src))
				bytes := 0
				for _, x := range list {
					bytes += x.Len
				}
				first := list[:min(len(list), KeptInvalids)]
				if gotText != wantText || got.N != len(list) || got.Bytes != bytes || !slices.Equal(got.First, first) {
					t.Fatalf("DecodeString(% X) = %+q %+v; Decode gives %+q, %d sequences of %d bytes, first %v",
						src, gotText, got, wantText, len(list), bytes, first)
				}
			}
		})
	}
}

// TestDecodeStringAllocatesNothingPerInvalidByte: a megabyte of bad bytes
// costs its output (three bytes of U+FFFD each, in a buffer that grows by
// doubling: at most about twelve bytes in all) and no list of them. Before
// Invalids, every bad byte cost an Invalid (16 bytes) in a slice that grew
// by doubling as well, over 40 bytes a bad byte in all.
func TestDecodeStringAllocatesNothingPerInvalidByte(t *testing.T) {
	const n = 1 << 18
	inputs := []struct{ charset, src string }{
		{"utf-8", strings.Repeat("\xff", n)},
		{"utf-8", strings.Repeat("a\xc0", n/2)},
		{"shift_jis", strings.Repeat("\xff", n)},
		{"euc-kr", strings.Repeat("\xff", n)},
		{"big5", strings.Repeat("\x80", n)},
		{"gb18030", strings.Repeat("\xff", n)},
		{"iso-2022-jp", strings.Repeat("\xff", n)},
	}
	for _, in := range inputs {
		t.Run("bad bytes in "+in.charset+" cost at most sixteen bytes each", func(t *testing.T) {
			c := MustLookup(in.charset)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out, bad := c.DecodeString(in.src)
			runtime.ReadMemStats(&after)
			if bad.N == 0 || len(bad.First) != KeptInvalids || len(out) < len(in.src) {
				t.Fatalf("%d bytes decoded to %d, %d invalid, first %v", len(in.src), len(out), bad.N, bad.First)
			}
			if got, max := after.TotalAlloc-before.TotalAlloc, uint64(16*len(in.src)+64<<10); got > max {
				t.Errorf("decoding %d bytes allocated %d bytes; want at most %d", len(in.src), got, max)
			}
		})
	}
}
