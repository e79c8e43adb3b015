package charset

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// asciiDeparture says how c departs from ASCII, or "" when it does not:
// every byte 00-7F standing alone decodes to the same code point or is
// reported invalid (ISO-2022-JP's SO, SI and ESC), in Decode and in the
// streaming decoder alike, and so does the run of all of them; every ASCII
// character encodes to its own byte, or is refused where its byte is
// invalid; and no byte after a non-ASCII one decodes to an ASCII character
// it is not. A trail byte may be ASCII and be taken into a character
// (Shift_JIS 81 40 is U+3000): the gateway splits on raw bytes before any
// charset applies, so that swallows no structure, and the web sends it.
func asciiDeparture(c *Charset) string {
	var run []byte
	var want strings.Builder
	for b := range 0x80 {
		in := []byte{byte(b)}
		run = append(run, byte(b))
		self := string(rune(b))
		got, bad := c.Decode(in)
		stream, _ := c.Encoding().NewDecoder().Bytes(in)
		invalid := got == replacement && len(bad) == 1
		if got != self && !invalid || string(stream) != got {
			return fmt.Sprintf("byte %02X decodes to %+q (in a stream: %+q)", b, got, stream)
		}
		want.WriteString(got)
		enc, err := c.Encode(self, false)
		var u *UnencodableError
		if invalid && !errors.As(err, &u) || !invalid && (err != nil || string(enc) != self) {
			return fmt.Sprintf("%U encodes to % X, %v", b, enc, err)
		}
	}
	got, _ := c.Decode(run)
	stream, _ := c.Encoding().NewDecoder().Bytes(run)
	if got != want.String() || string(stream) != got {
		return fmt.Sprintf("bytes 00-7F decode to %+q (in a stream: %+q)", got, stream)
	}
	for hi := 0x80; hi <= 0xFF; hi++ {
		for b := range 0x80 {
			in := []byte{byte(hi), byte(b)}
			got, _ := c.Decode(in)
			if forged := asciiNotFrom(got, b); forged != 0 {
				return fmt.Sprintf("bytes % X decode to %+q: %q is no byte of them", in, got, forged)
			}
		}
	}
	return ""
}

// asciiNotFrom is an ASCII character of s other than one b: the first
// character decoding forged, or 0.
func asciiNotFrom(s string, b int) rune {
	seen := false
	for _, r := range s {
		if r >= utf8.RuneSelf {
			continue
		}
		if r != rune(b) || seen {
			return r
		}
		seen = true
	}
	return 0
}

// departures caches asciiDeparture by encoding name: many labels name one
// encoding, and the pairs take a while.
var departures = map[string]string{}

func departureOf(c *Charset) string {
	d, ok := departures[c.name]
	if !ok {
		d = asciiDeparture(c)
		departures[c.name] = d
	}
	return d
}

// unguardedLookup is what Lookup gives without refusing a charset for not
// being ASCII-compatible: the table's encoding, with the fixes.
func unguardedLookup(t *testing.T, label string) *Charset {
	t.Helper()
	e, ok := findLabel(strings.ToLower(label))
	if !ok {
		t.Fatalf("label %q is not in the table", label)
	}
	return &Charset{name: e.name, enc: fix(e.name, e.enc.encoding()), restoreASCII: restoresASCII(e.name)}
}

func TestLookupAcceptsOnlyASCIICompatibleCharsets(t *testing.T) {
	refused := map[string]bool{}
	for _, label := range knownLabels(t) {
		c, err := Lookup(label)
		var u *UnknownError
		switch {
		case err == nil:
			if d := departureOf(c); d != "" {
				t.Errorf("Lookup(%q) accepts %s, in which %s", label, c.Name(), d)
			}
		case errors.As(err, &u) && strings.Contains(u.Reason, "ASCII"):
			// Refused for this reason only if it is so: the refused set is
			// exactly what fails, not a list kept by hand.
			raw := unguardedLookup(t, label)
			d := departureOf(raw)
			if d == "" {
				t.Errorf("Lookup(%q) refuses %s as not ASCII-compatible, but it is: %v", label, raw.Name(), err)
			}
			if !strings.Contains(err.Error(), label) {
				t.Errorf("Lookup(%q) error %q does not name the label", label, err)
			}
			refused[raw.Name()] = true
		}
	}
	// The encodings this is about: each is in x/text and named by IANA
	// labels that ianaindex accepts, so each must be found refused.
	for _, name := range []string{"ibm037", "ibm1047", "ibm01140"} {
		if !refused[name] {
			t.Errorf("no label of %s was refused as not ASCII-compatible (refused: %v)", name, refused)
		}
	}
}

func TestTheTablesIBM037ReadsASCIIBytesAsOtherASCII(t *testing.T) {
	// Why EBCDIC is refused (TestLookupRefusesWhatTheStandardRefuses):
	// Python's b"L\xa2\x83\x99\x89\x97\xa3n".decode("cp037") is "<script>".
	in := []byte("L\xA2\x83\x99\x89\x97\xA3n")
	got, err := unguardedLookup(t, "ibm037").Encoding().NewDecoder().Bytes(in)
	if err != nil || string(got) != "<script>" {
		t.Fatalf("ibm037 decodes % X to %q, %v; Python's cp037 gives \"<script>\"", in, got, err)
	}
}

func TestAnIANALabelOfUTF16GivesUTF8AsTheWHATWGLabelsDo(t *testing.T) {
	// csUTF16 is IANA's UTF-16 with a byte order mark, which htmlindex
	// does not know; "utf-16" itself is a WHATWG label of UTF-16LE.
	for _, label := range []string{"csUTF16", "csutf16", "utf-16", "csUTF16BE", "csUnicode"} {
		c, err := Lookup(label)
		if err != nil || c != UTF8 {
			t.Errorf("Lookup(%q) = %v, %v; want UTF-8 (\"get an output encoding\", § 4.3)", label, c, err)
		}
	}
}
