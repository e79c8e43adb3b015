package charset

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// pythonCases reads testdata/charset/python-codecs.json at the project
// root: text encoded by Python's codecs and, where installed, checked
// against glibc iconv by testdata/charset/gen.py.
func pythonCases(t testing.TB) []struct {
	Codec, Label, Lang, Text, Hex, Iconv string
} {
	t.Helper()
	b, err := os.ReadFile("../../testdata/charset/python-codecs.json")
	if err != nil {
		t.Fatal(err) // committed with the code: never skipped
	}
	var f struct {
		Cases []struct {
			Codec, Label, Lang, Text, Hex, Iconv string
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) < 100 {
		t.Fatalf("only %d cases in python-codecs.json", len(f.Cases))
	}
	return f.Cases
}

func TestDecodeAndEncodeAgreeWithPythonCodecs(t *testing.T) {
	for _, tc := range pythonCases(t) {
		t.Run(tc.Codec+" "+tc.Lang+" "+tc.Text, func(t *testing.T) {
			want, err := hex.DecodeString(tc.Hex)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Lookup(tc.Label)
			if err != nil {
				t.Fatalf("Lookup(%q): %v", tc.Label, err)
			}
			if got, bad := c.Decode(want); got != tc.Text || len(bad) > 0 {
				t.Errorf("%s Decode(% X) = %+q, errors %v; Python's %s gives %+q", c.Name(), want, got, bad, tc.Codec, tc.Text)
			}
			got, err := c.Encode(tc.Text, false)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s Encode(%+q) = % X, %v; Python's %s gives % X", c.Name(), tc.Text, got, err, tc.Codec, want)
			}
			if strings.HasPrefix(tc.Iconv, "differs") {
				t.Logf("iconv disagrees with Python: %s", tc.Iconv)
			}
		})
	}
}
