package charset

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// checkDecodeInvariants asserts what must hold for any input: valid UTF-8
// out, a U+FFFD for every reported error, every error inside src,
// in order and apart, and DecodeStrict and Valid agreeing with Decode.
func checkDecodeInvariants(t testing.TB, c *Charset, src []byte) {
	t.Helper()
	out, bad := c.Decode(src)
	if !utf8.ValidString(out) {
		t.Fatalf("%s Decode(% X) = %+q: not valid UTF-8", c.Name(), src, out)
	}
	end := 0
	for _, b := range bad {
		if b.Offset < end || b.Len < 1 || b.Offset+b.Len > len(src) {
			t.Fatalf("%s Decode(% X): error %+v out of range or order (all: %+v)", c.Name(), src, b, bad)
		}
		end = b.Offset + b.Len
	}
	if n := strings.Count(out, replacement); n < len(bad) {
		t.Fatalf("%s Decode(% X) = %+q: %d errors but only %d U+FFFD", c.Name(), src, out, len(bad), n)
	}
	s, err := c.DecodeStrict(src)
	switch {
	case len(bad) == 0 && (err != nil || s != out):
		t.Fatalf("%s DecodeStrict(% X) = %+q, %v; Decode gave %+q without errors", c.Name(), src, s, err, out)
	case len(bad) > 0 && err == nil:
		t.Fatalf("%s DecodeStrict(% X) accepted input with errors %+v", c.Name(), src, bad)
	}
	if c.Valid(src) != (len(bad) == 0) {
		t.Fatalf("%s Valid(% X) disagrees with Decode's %d errors", c.Name(), src, len(bad))
	}
}
