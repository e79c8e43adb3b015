package charset

import (
	"errors"
	"sort"
	"strings"
	"testing"
)

// labelExceptions are the labels of encodings.json that Lookup does not
// map to their own encoding, each with the reason.
var labelExceptions = map[string]struct {
	name   string // "" when Lookup refuses the label
	reason string
}{
	"replacement": {"", "the replacement encoding turns any input into a single U+FFFD: refused rather than losing the data"},
	"utf-16be":    {"utf-8", "forms and URLs are never UTF-16: the Encoding Standard's \"get an output encoding\" (§ 4.3) gives UTF-8"},
	"utf-16le":    {"utf-8", "as for utf-16be"},
}

func TestLookupMapsEveryWHATWGLabelToItsEncoding(t *testing.T) {
	r := loadRef(t)
	labels := make([]string, 0, len(r.labels))
	for l := range r.labels {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, label := range labels {
		encName := strings.ToLower(r.labels[label])
		want := encName
		exc, isExc := labelExceptions[encName]
		if isExc {
			want = exc.name
		}
		for _, spelled := range []string{label, strings.ToUpper(label), " \t" + label + "\n\f\r"} {
			c, err := Lookup(spelled)
			switch {
			case want == "":
				var u *UnknownError
				if !errors.As(err, &u) || u.Reason == "" {
					t.Errorf("Lookup(%q) = %v, %v; want a refusal with a reason (%s)", spelled, c, err, exc.reason)
				}
			case err != nil:
				t.Errorf("Lookup(%q) failed: %v; want %s", spelled, err, want)
			case c.Name() != want:
				t.Errorf("Lookup(%q).Name() = %q, want %q", spelled, c.Name(), want)
			}
		}
	}
}

func TestLookupRefusesWhatTheStandardRefuses(t *testing.T) {
	// EBCDIC is IANA's only; in it the bytes of ASCII text are other
	// characters (TestTheTablesIBM037ReadsASCIIBytesAsOtherASCII).
	const ebcdic = "is not ASCII-compatible"
	for _, tc := range []struct{ name, label, says string }{
		{"an empty label is unknown", "", "unknown"},
		{"a label of white space only is unknown", " \t", "unknown"},
		{"a label with a no-break space around it is unknown (only ASCII white space is trimmed)", "\u00a0utf-8", "unknown"},
		{"a label with an ideographic space is unknown", "utf-8\u3000", "unknown"},
		{"UTF-7 is not an encoding the standard knows", "utf-7", "unknown"},
		{"a made-up label is unknown", "x-no-such-charset", "unknown"},
		{"EBCDIC ibm037 is refused", "ibm037", ebcdic},
		{"its alias cp037 is refused in upper case", "CP037", ebcdic},
		{"its alias ebcdic-cp-us is refused with white space around it", " ebcdic-cp-us\t", ebcdic},
		{"EBCDIC ibm1047 is refused", "ibm1047", ebcdic},
		{"EBCDIC ibm01140 is refused", "ibm01140", ebcdic},
		{"its alias ebcdic-us-37+euro is refused", "ebcdic-us-37+euro", ebcdic},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Lookup(tc.label)
			var u *UnknownError
			if !errors.As(err, &u) || u.Label != tc.label {
				t.Fatalf("Lookup(%q) = %v, %v; want *UnknownError naming the label", tc.label, c, err)
			}
			if !strings.Contains(err.Error(), "charset") || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not name the package's operation and say %q", err, tc.says)
			}
		})
	}
}

func TestLookupFindsXUserDefinedAsXTextDoes(t *testing.T) {
	// x-user-defined (§ 15) maps 80-FF to U+F780-U+F7FF; x/text has it.
	c, err := Lookup("x-user-defined")
	if err != nil {
		t.Fatal(err)
	}
	if got, bad := c.Decode([]byte{0x41, 0x80, 0xFF}); got != "A\uF780\uF7FF" || len(bad) != 0 {
		t.Errorf("x-user-defined Decode(41 80 FF) = %+q, %v; want \"A\\uF780\\uF7FF\"", got, bad)
	}
}
