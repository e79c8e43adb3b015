package cgi

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

// seenByteByByte is finalScanner's rule applied one byte at a time, the
// way it was written first: the reference its faster loop must agree with.
func seenByteByByte(body, delim []byte) bool {
	pos, state, seen := 0, 0, false
	for _, c := range body {
		if c == '\n' {
			seen = seen || state == 1
			pos, state = 0, 0
			continue
		}
		switch state {
		case 0:
			if c == delim[pos] {
				if pos++; pos == len(delim) {
					state = 1
				}
			} else {
				state = 2
			}
		case 1:
			if c != ' ' && c != '\t' && c != '\r' {
				state = 2
			}
		}
	}
	return seen || state == 1
}

func TestFinalScannerAgreesWithTheByteByByteRule(t *testing.T) {
	delim := []byte("--b--")
	pieces := []string{"--b--", "--b", "--b-- ", "--b--x", "x--b--", "\r\n", "\n", " ", "\t", "data", "--", "-", "b"}
	rng := rand.New(rand.NewPCG(7, 11))
	for n := 0; n < 20000; n++ {
		var body []byte
		for k := rng.IntN(12); k >= 0; k-- {
			body = append(body, pieces[rng.IntN(len(pieces))]...)
		}
		want := seenByteByByte(body, delim)
		// Reads of one byte, of a few, and whole: the state crosses reads.
		for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(body)), iotest.HalfReader(bytes.NewReader(body)), bytes.NewReader(body)} {
			fs := &finalScanner{r: r, delim: delim}
			if _, err := io.Copy(io.Discard, fs); err != nil {
				t.Fatal(err)
			}
			if fs.seen != want {
				t.Fatalf("body %q: seen %v; the byte-by-byte rule says %v", body, fs.seen, want)
			}
		}
	}
}
