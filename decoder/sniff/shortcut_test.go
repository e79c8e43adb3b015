package sniff

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
)

// shortTexts are every run of one to six characters of the corpus's texts:
// short strings are where legacy bytes are likeliest to be valid UTF-8.
func shortTexts(t *testing.T) []string {
	var out []string
	for _, r := range loadRows(t, corpusPath) {
		rs := []rune(r.Text)
		for w := 1; w <= 6; w++ {
			for i := 0; i+w <= len(rs); i++ {
				out = append(out, string(rs[i:i+w]))
			}
		}
	}
	return out
}

// The shortcut answers UTF-8 without weighing a legacy reading, so it must
// not take legacy text: every short run of the corpus, encoded by x/text
// into each candidate that can write it, alone and as two fields.
func TestTheUTF8ShortcutTakesNoLegacyText(t *testing.T) {
	texts := shortTexts(t)
	legacy, validUTF8 := 0, 0
	for _, c := range candidateList {
		if c.name == "iso-2022-jp" {
			continue // 7-bit: never valid UTF-8 with a byte 0x80 and up
		}
		enc, err := htmlindex.Get(c.name)
		if err != nil {
			t.Fatal(err)
		}
		var prev []byte
		for _, text := range texts {
			b, err := enc.NewEncoder().Bytes([]byte(text))
			if err != nil || !hasHigh(b) {
				continue
			}
			legacy++
			for _, samples := range [][][]byte{{b}, {prev, b}} {
				if allUTF8(samples) {
					validUTF8++
					if ordinaryUTF8(samples) {
						t.Errorf("%s %q (% x) is taken as UTF-8 %q", c.name, text, samples, samples)
					}
				}
			}
			prev = b
		}
	}
	if legacy < 10000 || validUTF8 < 100 {
		t.Fatalf("only %d legacy strings, %d of them valid UTF-8: the test proves little", legacy, validUTF8)
	}
	t.Logf("%d legacy strings, %d samples valid UTF-8, none taken", legacy, validUTF8)
}

func hasHigh(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

func TestTheUTF8ShortcutTakesMixedText(t *testing.T) {
	tests := []struct {
		name    string
		samples []string
		want    bool
	}{
		{"accented Latin beside CJK is taken", []string{"café 印刷"}, true},
		{"accented Latin in one field and CJK in another is taken", []string{"café", "印刷"}, true},
		{"CJK alone is taken", []string{"印刷"}, true},
		{"accented Latin alone is weighed: GBK's D1 A7 is valid UTF-8 too", []string{"café"}, false},
		{"an unassigned code point is weighed", []string{"\xe0\xb7\xbe"}, false},
		{"polytonic Greek is weighed: windows-874 writes it by chance", []string{"\xe1\xbc\xb9"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			samples := make([][]byte, len(tt.samples))
			for i, s := range tt.samples {
				samples[i] = []byte(s)
			}
			if got := utf8.Valid(samples[0]) && ordinaryUTF8(samples); got != tt.want {
				t.Errorf("ordinaryUTF8(%q) = %v, want %v", tt.samples, got, tt.want)
			}
		})
	}
}

// builtVar, set in a child's environment, makes TestOnlyLegacyTextBuildsTheCandidates
// sniff its value and print whether the candidates were built.
const builtVar = "SNIFF_TEST_BUILT"

// A value the UTF-8 shortcut answers leaves the legacy candidates unbuilt:
// building them was a third of a small CGI GET's request. Each value is
// sniffed in a fresh process, where nothing has built them yet.
func TestOnlyLegacyTextBuildsTheCandidates(t *testing.T) {
	if v, ok := os.LookupEnv(builtVar); ok {
		built := false
		build := candidates.New
		candidates.New = func() []*candidate { built = true; return build() }
		New().Sniff([][]byte{[]byte(v)}, Evidence{})
		fmt.Print(built)
		return
	}
	tests := []struct {
		name, value string
		built       bool
	}{
		{"ordinary UTF-8 with a three-byte character", "café <b> & 印刷", false},
		{"UTF-8 with two-byte characters alone", "café crème", true},
		{"windows-1252", "caf\xe9", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestOnlyLegacyTextBuildsTheCandidates$")
			cmd.Env = append(os.Environ(), builtVar+"="+tt.value)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.HasPrefix(string(out), "true"); got != tt.built {
				t.Errorf("sniffing %q built the candidates: %v, want %v (child said %q)", tt.value, got, tt.built, out)
			}
		})
	}
}
