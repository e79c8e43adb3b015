package sniff

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cgigate/cgigate/decoder/charset"
)

// malformedEncodings are the encodings with a structural check.
var malformedEncodings = []string{"shift_jis", "euc-jp", "euc-kr", "gbk", "gb18030", "big5"}

// checkMalformed fails t if check calls s malformed where decoder/charset,
// the truth, decodes it without an error, and counts in caught and bad how
// many of the strings with an error the check finds.
func checkMalformed(t testing.TB, c *charset.Charset, check func([]byte) bool, s []byte, caught, bad *int) {
	valid := c.Valid(s)
	if !valid {
		*bad++
	}
	if check(s) {
		if valid {
			t.Fatalf("%s: % x is called malformed, yet decoder/charset decodes it without an error", c.Name(), s)
		}
		*caught++
	}
}

// The check may only reject what the decoder cannot decode: for every
// 1- and 2-byte string, and random strings of 3 to 8 bytes built from the
// bytes where the encodings' ranges begin and end, a string the check
// calls malformed decodes with an error.
func TestMalformedOnlyWhereTheDecoderErrs(t *testing.T) {
	// The edges of every range of § 10-14, and bytes inside them.
	edges := []byte{0x00, 0x2F, 0x30, 0x39, 0x3A, 0x3F, 0x40, 0x41, 0x5A, 0x61, 0x7E, 0x7F,
		0x80, 0x81, 0x8D, 0x8E, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xA4, 0xB0, 0xC8, 0xDF,
		0xE0, 0xE9, 0xEF, 0xF0, 0xF9, 0xFA, 0xFC, 0xFD, 0xFE, 0xFF}
	for _, name := range malformedEncodings {
		t.Run(name+" calls malformed only what the decoder cannot decode", func(t *testing.T) {
			c := charset.MustLookup(name)
			check := malformedCheck(name)
			caught, bad := 0, 0
			for a := range 256 {
				checkMalformed(t, c, check, []byte{byte(a)}, &caught, &bad)
				for b := range 256 {
					checkMalformed(t, c, check, []byte{byte(a), byte(b)}, &caught, &bad)
				}
			}
			rng := rand.New(rand.NewPCG(18, uint64(len(name))))
			s := make([]byte, 8)
			for range 200_000 {
				s = s[:3+rng.IntN(6)]
				for i := range s {
					if rng.IntN(3) == 0 {
						s[i] = byte(rng.IntN(256))
					} else {
						s[i] = edges[rng.IntN(len(edges))]
					}
				}
				checkMalformed(t, c, check, s, &caught, &bad)
			}
			if caught == 0 {
				t.Fatal("the check calls nothing malformed")
			}
			t.Logf("%d of the %d strings the decoder cannot decode are called malformed", caught, bad)
		})
	}
}

func FuzzMalformed(f *testing.F) {
	for _, s := range []string{"caf\xE9", "\x93\x8C\x8B\x9E", "\xBC\xAD\xBF\xEF", "\x81\x30\x81\x30", "\x8F\xA1\xA1", gbkReplacement} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		for _, name := range malformedEncodings {
			caught, bad := 0, 0
			checkMalformed(t, charset.MustLookup(name), malformedCheck(name), s, &caught, &bad)
		}
	})
}

// A value malformed in a multibyte candidate is rejected without a
// decoder: none is made for it.
func TestMalformedValuesNeedNoDecoder(t *testing.T) {
	tests := []struct {
		name  string
		value string
		in    []string
	}{
		{"café in windows-1252 ends in a lead byte", "caf\xE9", []string{"shift_jis", "euc-jp", "euc-kr", "gbk", "big5"}},
		{"Müller in windows-1252 has a trail out of range", "M\xFCller", []string{"euc-jp", "euc-kr"}},
		{"a lone FF is no byte of theirs", "\xFF", []string{"shift_jis", "euc-jp", "euc-kr", "gbk", "big5"}},
		{"A0 is no Shift_JIS byte", "\xA0\xA0", []string{"shift_jis"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range candidates.Get() {
				if !slices.Contains(tt.in, c.name) {
					continue
				}
				var sc scratch
				if sc.decodeClean(c, [][]byte{[]byte(tt.value)}) {
					t.Fatalf("%s decodes % x cleanly", c.name, tt.value)
				}
				if sc.decoders[c.index] != nil {
					t.Errorf("%s made a decoder to find % x malformed", c.name, tt.value)
				}
			}
		})
	}
}
