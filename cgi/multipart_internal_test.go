package cgi

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

// seenByteByByte is boundaryScanner's closing-line rule applied one byte at a time, the
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

// outsideByLines is boundaryScanner's preamble and epilogue rule over
// whole lines: the reference for its KMP search, which crosses reads.
func outsideByLines(body []byte, dash string) (strayPre, strayEpi bool, pre, epi int64) {
	count := func(l []byte) (n int64) {
		for _, c := range l {
			if c != ' ' && c != '\t' && c != '\r' {
				n++
			}
		}
		return n
	}
	phase := inPreamble
	for _, l := range bytes.Split(body, []byte("\n")) {
		t := string(bytes.TrimRight(l, " \t\r"))
		switch {
		case phase == inPreamble && t == dash:
			phase = inParts
		case phase != inEpilogue && t == dash+"--":
			phase = inEpilogue
		case phase == inPreamble:
			strayPre = strayPre || bytes.Contains(l, []byte(dash))
			pre += count(l)
		case phase == inEpilogue:
			strayEpi = strayEpi || bytes.Contains(l, []byte(dash))
			epi += count(l)
		}
	}
	return
}

func TestBoundaryScannerAgreesWithTheByteByByteRule(t *testing.T) {
	delim := []byte("--b--")
	pieces := []string{"--b--", "--b", "--b-- ", "--b--x", "x--b--", "\r\n", "\n", " ", "\t", "data", "--", "-", "b", "---b", "--b ", "-b"}
	rng := rand.New(rand.NewPCG(7, 11))
	for n := 0; n < 20000; n++ {
		var body []byte
		for k := rng.IntN(12); k >= 0; k-- {
			body = append(body, pieces[rng.IntN(len(pieces))]...)
		}
		want := seenByteByByte(body, delim)
		// Reads of one byte, of a few, and whole: the state crosses reads.
		for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(body)), iotest.HalfReader(bytes.NewReader(body)), bytes.NewReader(body)} {
			fs := newBoundaryScanner(r, "b")
			if _, err := io.Copy(io.Discard, fs); err != nil {
				t.Fatal(err)
			}
			if fs.seen != want {
				t.Fatalf("body %q: seen %v; the byte-by-byte rule says %v", body, fs.seen, want)
			}
			sp, se, pre, epi := outsideByLines(body, "--b")
			if fs.strayPreamble != sp || fs.strayEpilogue != se || fs.preamble != pre || fs.epilogue != epi {
				t.Fatalf("body %q: stray %v %v, counts %d %d; by lines %v %v, %d %d", body,
					fs.strayPreamble, fs.strayEpilogue, fs.preamble, fs.epilogue, sp, se, pre, epi)
			}
		}
	}
}
