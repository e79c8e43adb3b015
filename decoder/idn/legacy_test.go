package idn

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

func TestEncodeDecodeLegacy(t *testing.T) {
	tests := []struct {
		name, label, encoded string
	}{
		// The examples of the task, worked by hand from the drafts:
		// 日 U+65E5 -> M5E5, 本 U+672C -> M72C, 語 U+8A9E -> OA9E.
		{"Japanese is written in triple-hyphened UTF-5", "日本語", "M---5E5M72COA9E"},
		{"Greek is written in triple-hyphened UTF-5", "αβ", "J---B1JB2"},
		{"French œ is written as its UTF-8 bytes C5 93", "œuf", "C--59--3uf"},
		{"Esperanto ĉ is written as its UTF-8 bytes C4 89", "feliĉulo", "feliC--48--9ulo"},
		// draft-jseng-utf5-01 §3 writes A U+2262 U+0391 as "K1I262J91".
		{"the draft's own example gets the mark after its first letter", "A\u2262\u0391", "K---1I262J91"},
		{"ASCII in a UTF-5 label is UTF-5 too", "日本-go", "M---5E5M72CIDM7MF"},
		{"a code point beyond the BMP is five nibbles", "😀", "H---F600"},
		{"U+024F, the last of Latin Extended-B, stays UTF-8", "ɏ", "C--98--F"},
		{"U+0250, the first past Latin Extended-B, is UTF-5", "ɐ", "I---50"},
		{"a double hyphen of a non-ASCII label is escaped", "é--x", "C--3A--9----2x"},
		{"a triple hyphen of a non-ASCII label is escaped", "é---x", "C--3A--9----3x"},
		{"four hyphens are two escapes of two", "é----x", "C--3A--9----2----2x"},
		{"a single hyphen stays", "é-x", "C--3A--9-x"},
		{"the empty label is itself", "", ""},
		{"a plain ASCII label is itself", "example", "example"},
		{"a punycode A-label is itself", "xn--mnchen-3ya", "xn--mnchen-3ya"},
		{"a YouTube-style label is itself", "r3---sn-apo3qvuoxuxbt-j5pe", "r3---sn-apo3qvuoxuxbt-j5pe"},
		{"an ASCII label with -- between letters that are not hex is itself", "foo--bar", "foo--bar"},
		{"an ASCII label that looks double-hyphened is escaped", "ab--cd", "ab----2cd"},
		{"an ASCII label that looks like UTF-5 is escaped", "J---B1JB2", "J----3B1JB2"},
		{"an ASCII label holding an escape is escaped", "a----2", "a----2----22"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EncodeLegacy(tt.label); got != tt.encoded {
				t.Errorf("EncodeLegacy(%q) = %q, want %q", tt.label, got, tt.encoded)
			}
			got, err := DecodeLegacy(tt.encoded)
			if err != nil || got != tt.label {
				t.Errorf("DecodeLegacy(%q) = %q, %v; want %q", tt.encoded, got, err, tt.label)
			}
		})
	}
}

func TestDecodeLegacyIgnoresCase(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"lowercase UTF-5 decodes as uppercase does", "m---5e5m72coa9e", "日本語"},
		{"lowercase hex in double-hyphened UTF-8 decodes", "c--59--3uf", "œuf"},
		{"the ASCII of a double-hyphened label keeps its case", "C--59--3UF", "œUF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeLegacy(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("DecodeLegacy(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestDecodeLegacyRejects(t *testing.T) {
	tests := []struct {
		name, in string
		offset   int
	}{
		{"a surrogate in UTF-5 is not a character", "T---800", 0},
		{"a code point above U+10FFFF is not a character", "H---FFFFFF", 0},
		{"a UTF-5 digit with a leading zero is not canonical", "G---41M5E5", -1},
		{"UTF-5 of Latin-1 text is not canonical: it takes UTF-8", "K---1", -1},
		{"bytes that are not UTF-8 are rejected", "ab--cd", -1},
		{"a lone UTF-8 lead byte is rejected", "C--5", -1},
		{"an ASCII byte written in hex is not canonical", "5--9", -1},
		{"hyphens that are no escape are rejected", "C--3A--9--x", 8},
		{"a single hyphen before an escape is not canonical", "a-----2", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeLegacy(tt.in)
			var le *LegacyError
			if !errors.As(err, &le) {
				t.Fatalf("DecodeLegacy(%q) = %q, %v; want a *LegacyError", tt.in, got, err)
			}
			if got != tt.in {
				t.Errorf("DecodeLegacy(%q) returned %q with its error, want the label unchanged", tt.in, got)
			}
			if le.Label != tt.in || le.Offset != tt.offset {
				t.Errorf("error %v has label %q offset %d, want %q offset %d", err, le.Label, le.Offset, tt.in, tt.offset)
			}
		})
	}
}

// TestLegacyVectors checks the package against testdata/legacy-vectors.json,
// written by testdata/gen_legacy_vectors.py from Python's own ord() and
// UTF-8 codec.
func TestLegacyVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/legacy-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct{ Label, Form, Encoded string }
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) < 20 {
		t.Fatalf("only %d vectors", len(rows))
	}
	for _, r := range rows {
		t.Run(r.Label+" is written "+r.Encoded, func(t *testing.T) {
			if got := EncodeLegacy(r.Label); got != r.Encoded {
				t.Errorf("EncodeLegacy(%q) = %q, want %q", r.Label, got, r.Encoded)
			}
			if got := formOf(r.Encoded).String(); got != r.Form {
				t.Errorf("form of %q = %s, want %s", r.Encoded, got, r.Form)
			}
			if got, err := DecodeLegacy(r.Encoded); err != nil || got != r.Label {
				t.Errorf("DecodeLegacy(%q) = %q, %v; want %q", r.Encoded, got, err, r.Label)
			}
		})
	}
}

// legacyPool draws the characters of random labels, weighted towards the
// ones that make encodings interesting: hyphens, hex letters, G-V letters.
var legacyPool = []rune("abcdefghijklmnopqrstuvwxyz0123456789------ABCDEFGVéœĉɏɐαβ日本語😀\u00a0ÿ")

func randomLabel(r *rand.Rand) string {
	n := r.IntN(12)
	var b strings.Builder
	for range n {
		b.WriteRune(legacyPool[r.IntN(len(legacyPool))])
	}
	return b.String()
}

func isLDH(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func TestLegacyRoundTripProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		label := randomLabel(r)
		enc := EncodeLegacy(label)
		if !isLDH(enc) {
			t.Fatalf("EncodeLegacy(%q) = %q, not letters, digits and hyphens", label, enc)
		}
		if got, err := DecodeLegacy(enc); err != nil || got != label {
			t.Fatalf("DecodeLegacy(EncodeLegacy(%q) = %q) = %q, %v", label, enc, got, err)
		}
		// DNS may hand the label back in another case.
		if lower := strings.ToLower(label); lower == label {
			if got, err := DecodeLegacy(strings.ToLower(enc)); err != nil || got != label {
				t.Fatalf("DecodeLegacy(%q) = %q, %v; want %q", strings.ToLower(enc), got, err, label)
			}
		}
	}
}

// TestLegacyDecodingIsUnambiguous feeds random ASCII that often has the
// legacy shapes and checks that whatever decodes is the one encoding of its
// result: no two spellings (other than by case) name the same label.
func TestLegacyDecodingIsUnambiguous(t *testing.T) {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVabc-----"
	r := rand.New(rand.NewPCG(3, 4))
	decoded := 0
	for range 50000 {
		b := make([]byte, 1+r.IntN(10))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		got, err := DecodeLegacy(s)
		if err != nil {
			if got != s {
				t.Fatalf("DecodeLegacy(%q) failed but returned %q", s, got)
			}
			continue
		}
		if got != s {
			decoded++
		}
		if enc := EncodeLegacy(got); !strings.EqualFold(enc, s) {
			t.Fatalf("DecodeLegacy(%q) = %q, which encodes as %q", s, got, enc)
		}
	}
	if decoded == 0 {
		t.Fatal("no random input decoded: the test checks nothing")
	}
}

func FuzzLegacy(f *testing.F) {
	for _, s := range []string{"日本語", "M---5E5M72COA9E", "œuf", "C--59--3uf", "a--b", "a----2", "T---800", "", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, label string) {
		// Ill-formed bytes are encoded as U+FFFD each, as []rune converts them.
		want := string([]rune(label))
		enc := EncodeLegacy(label)
		if dec, err := DecodeLegacy(enc); err != nil || dec != want {
			t.Fatalf("DecodeLegacy(EncodeLegacy(%q) = %q) = %q, %v; want %q", label, enc, dec, err, want)
		}
		got, err := DecodeLegacy(label)
		if err == nil && got != label {
			if back := EncodeLegacy(got); !strings.EqualFold(back, label) {
				t.Fatalf("DecodeLegacy(%q) = %q, which encodes as %q", label, got, back)
			}
		}
	})
}

func TestLegacyHost(t *testing.T) {
	tests := []struct{ name, host, encoded string }{
		{"each label of a host is encoded on its own", "日本語.jp", "M---5E5M72COA9E.jp"},
		{"the user part of an address is encoded too", "αβ@日本語.jp", "J---B1JB2@M---5E5M72COA9E.jp"},
		{"the last @ separates user and host", "a@b@œuf.fr", "a@b@C--59--3uf.fr"},
		{"dots in the user part separate its labels", "œuf.αβ@x.fr", "C--59--3uf.J---B1JB2@x.fr"},
		{"empty labels and a trailing dot are kept", "œuf..fr.", "C--59--3uf..fr."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EncodeLegacyHost(tt.host); got != tt.encoded {
				t.Errorf("EncodeLegacyHost(%q) = %q, want %q", tt.host, got, tt.encoded)
			}
			if got, err := DecodeLegacyHost(tt.encoded); err != nil || got != tt.host {
				t.Errorf("DecodeLegacyHost(%q) = %q, %v; want %q", tt.encoded, got, err, tt.host)
			}
		})
	}
	t.Run("a bad label fails the host and names it", func(t *testing.T) {
		const host = "ok.T---800.jp"
		got, err := DecodeLegacyHost(host)
		var e *Error
		var le *LegacyError
		if !errors.As(err, &e) || !errors.As(err, &le) {
			t.Fatalf("DecodeLegacyHost(%q) = %q, %v; want *Error wrapping *LegacyError", host, got, err)
		}
		if got != host || e.Host != host || e.Op != "DecodeLegacyHost" || le.Label != "T---800" {
			t.Errorf("got %q, error %#v / %#v", got, e, le)
		}
	})
}
