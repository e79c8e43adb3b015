package charset

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

// The table Lookup searches (lookup_labels.go) replaced run-time calls of
// x/text's htmlindex and ianaindex. These tests hold it to what those
// packages say, asked afresh: the old Lookup, kept here as oldLookup.

// oldResolve is how Lookup found a trimmed label's encoding and name before
// the table: htmlindex, else ianaindex; htmlindex's name, else IANA's in
// lower case.
func oldResolve(trimmed string) (name string, enc encoding.Encoding, ok bool) {
	enc, err := htmlindex.Get(trimmed)
	if err != nil {
		enc, err = ianaindex.IANA.Encoding(trimmed)
		if err != nil || enc == nil {
			return "", nil, false
		}
	}
	name, err = htmlindex.Name(enc)
	if err != nil {
		name, _ = ianaindex.IANA.Name(enc)
		name = strings.ToLower(name)
	}
	return name, enc, true
}

// oldLookup is Lookup as it was before the table: what it does with the
// encoding found is Lookup's own (newCharset).
func oldLookup(label string) (*Charset, error) {
	trimmed := strings.Trim(label, asciiWhitespace)
	if trimmed == "" || strings.TrimSpace(trimmed) != trimmed {
		return nil, &UnknownError{Label: label}
	}
	name, enc, ok := oldResolve(trimmed)
	if !ok {
		return nil, &UnknownError{Label: label}
	}
	// Whether the encoding is ASCII-compatible is this package's test of
	// it (asciiDeparture), not the table's: the two must agree.
	raw := &Charset{name: name, enc: fix(name, enc), restoreASCII: restoresASCII(name)}
	return newCharset(label, name, enc, departureOf(raw) == "")
}

// ianaAliases are the keys of ianaindex's alias map, read by reflection: the
// package exports no list, and reading it so shares nothing with the
// generator, which parses x/text's source.
func ianaAliases(t *testing.T) []string {
	t.Helper()
	m := reflect.ValueOf(ianaindex.IANA).Elem().FieldByName("alias")
	if m.Kind() != reflect.Map {
		t.Fatalf("ianaindex.Index has no alias map any more (%v): find its labels another way", m.Kind())
	}
	var keys []string
	for _, k := range m.MapKeys() {
		keys = append(keys, k.String())
	}
	if len(keys) < 1000 {
		t.Fatalf("ianaindex's alias map has %d keys; the registry has over a thousand", len(keys))
	}
	return keys
}

// xtextEncodings are all the encodings x/text exports.
func xtextEncodings() []encoding.Encoding {
	all := []encoding.Encoding{encoding.Replacement, usASCII}
	for _, l := range [][]encoding.Encoding{charmap.All, japanese.All, korean.All, simplifiedchinese.All, traditionalchinese.All, unicode.All} {
		all = append(all, l...)
	}
	return all
}

// knownLabels are every label of encodings.json, of ianaindex's alias map, every name htmlindex and ianaindex's
// three indexes give x/text's encodings, and the table's own labels.
func knownLabels(t *testing.T) []string {
	t.Helper()
	known := ianaAliases(t)
	for l := range loadLabels(t) {
		known = append(known, l)
	}
	us, _ := ianaindex.IANA.Encoding("us")
	for _, e := range append(xtextEncodings(), us) {
		if n, err := htmlindex.Name(e); err == nil {
			known = append(known, n)
		}
		for _, x := range []*ianaindex.Index{ianaindex.IANA, ianaindex.MIME, ianaindex.MIB} {
			if n, err := x.Name(e); err == nil {
				known = append(known, n)
			}
		}
	}
	for _, e := range labels {
		known = append(known, e.label)
	}
	slices.Sort(known)
	return slices.Compact(known)
}

// loadLabels reads the labels of the vendored encodings.json.
func loadLabels(t *testing.T) map[string]string {
	t.Helper()
	m, err := parseLabels(filepath.Join(vectorsDir(t), "encodings.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// spellings are the ways a label may come: in any case, with white space a
// browser trims or one it does not, with the non-ASCII letters that
// strings.ToLower (which htmlindex and ianaindex call) folds to ASCII, and
// spoilt by a character more or less.
func spellings(label string) []string {
	s := []string{
		label, strings.ToLower(label), strings.ToUpper(label),
		" \t" + label + "\n\f\r", "\u00a0" + label, label + "\u3000", "\v" + label,
		label + "x", "x" + label, label + "\x00",
		strings.ReplaceAll(strings.ToLower(label), "k", "\u212a"), // KELVIN SIGN
		strings.ReplaceAll(strings.ToLower(label), "i", "\u0130"), // I WITH DOT ABOVE
	}
	if len(label) > 1 {
		s = append(s, label[:len(label)-1], strings.ToUpper(label[:1])+label[1:])
	}
	return s
}

func TestLookupAcceptsExactlyTheLabelsHtmlindexAndIanaindexDid(t *testing.T) {
	known := knownLabels(t)
	accepted := 0
	for _, label := range known {
		for _, spelled := range spellings(label) {
			want, wantErr := oldLookup(spelled)
			got, gotErr := Lookup(spelled)
			switch {
			case (wantErr == nil) != (gotErr == nil):
				t.Errorf("Lookup(%q) = %v, %v; htmlindex and ianaindex gave %v, %v", spelled, got, gotErr, want, wantErr)
			case wantErr != nil:
				var u *UnknownError
				if !errors.As(gotErr, &u) || gotErr.Error() != wantErr.Error() {
					t.Errorf("Lookup(%q) error %q, want %q", spelled, gotErr, wantErr)
				}
			default:
				accepted++
				if got.Name() != want.Name() || got.restoreASCII != want.restoreASCII || got.utf8 != want.utf8 {
					t.Errorf("Lookup(%q) = %q (restore %v, utf8 %v), want %q (%v, %v)", spelled,
						got.Name(), got.restoreASCII, got.utf8, want.Name(), want.restoreASCII, want.utf8)
				}
			}
		}
	}
	if accepted < 3*len(labels) {
		t.Errorf("only %d spellings accepted for %d labels in the table", accepted, len(labels))
	}
}

func TestEveryLabelNamesTheEncodingHtmlindexOrIanaindexGives(t *testing.T) {
	for _, label := range knownLabels(t) {
		key := strings.ToLower(label)
		name, want, ok := oldResolve(key)
		e, found := findLabel(key)
		if found != ok {
			t.Errorf("label %q in the table: %v; accepted by htmlindex or ianaindex: %v", key, found, ok)
			continue
		}
		if !ok {
			continue
		}
		got := e.enc.encoding()
		if e.name != name {
			t.Errorf("label %q: name %q, want %q", key, e.name, name)
		}
		if got != want {
			if e.enc != encUSASCII {
				t.Errorf("label %q: encoding %v, want %v", key, got, want)
			}
			// ianaindex's US-ASCII is unexported: its twin is compared
			// byte for byte below, and here by its decoding.
			sameDecoding(t, key, got, want)
		}
	}
}

func TestLookupDecodesAndEncodesAsBeforeForEveryLabel(t *testing.T) {
	samples := [][]byte{
		[]byte("A\x80\xFF\x1Bz"), []byte("\x81\x40\x82\xA0"), []byte("\xA4\xA2\xB0\xA1"), []byte("\x8E\xA1\x8F\xA2\xAF"),
		[]byte("\x1B$B0!\x1B(B\\~"), []byte("\x81\x30\x81\x30\x84\x31\xA4\x39"), []byte("\xE3\x81\x82\xC3"), []byte("\xFE\xFF\x00A\xD8\x00"),
		[]byte("\xF0\x40\x88\xF3\x87\x40"), []byte("~{<:Ky2;S{#,~}"),
	}
	texts := []string{"abc", "é€ÿ", "日本語テキスト", "한국어", "中文简体", "繁體字", "\x1B\x0E", "\uE5E5\uFFFD", "\xff"}
	for _, e := range labels {
		t.Run("label "+e.label+" decodes and encodes as before", func(t *testing.T) {
			old, oldErr := oldLookup(e.label)
			c, err := Lookup(e.label)
			if (err == nil) != (oldErr == nil) {
				t.Fatalf("Lookup = %v, %v; before %v, %v", c, err, old, oldErr)
			}
			if err != nil {
				return
			}
			var all []byte
			for b := range 256 {
				all = append(all, byte(b))
			}
			for _, in := range append(samples, all) {
				for i := range in {
					got, gotBad := c.Decode(in[i : i+1])
					want, wantBad := old.Decode(in[i : i+1])
					if got != want || !slices.Equal(gotBad, wantBad) {
						t.Fatalf("Decode(% X) = %+q %v, before %+q %v", in[i:i+1], got, gotBad, want, wantBad)
					}
				}
				got, gotBad := c.Decode(in)
				want, wantBad := old.Decode(in)
				if got != want || !slices.Equal(gotBad, wantBad) {
					t.Fatalf("Decode(% X) = %+q %v, before %+q %v", in, got, gotBad, want, wantBad)
				}
				gs, _ := c.Encoding().NewDecoder().Bytes(in)
				ws, _ := old.Encoding().NewDecoder().Bytes(in)
				if !bytes.Equal(gs, ws) {
					t.Fatalf("Encoding().NewDecoder() of % X = %+q, before %+q", in, gs, ws)
				}
			}
			for _, s := range texts {
				for _, ncr := range []bool{false, true} {
					got, gotErr := c.Encode(s, ncr)
					want, wantErr := old.Encode(s, ncr)
					if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) ||
						gotErr != nil && gotErr.Error() != wantErr.Error() {
						t.Fatalf("Encode(%+q, %v) = % X, %v; before % X, %v", s, ncr, got, gotErr, want, wantErr)
					}
				}
			}
		})
	}
}

// sameDecoding compares two encodings' decoders on every single byte and on
// all 256 bytes in a row.
func sameDecoding(t *testing.T, what string, got, want encoding.Encoding) {
	t.Helper()
	var all []byte
	for b := range 256 {
		all = append(all, byte(b))
		g, gErr := got.NewDecoder().Bytes([]byte{byte(b)})
		w, wErr := want.NewDecoder().Bytes([]byte{byte(b)})
		if !bytes.Equal(g, w) || (gErr == nil) != (wErr == nil) {
			t.Errorf("%s: byte %02X decodes to %+q, %v; want %+q, %v", what, b, g, gErr, w, wErr)
		}
	}
	g, _ := got.NewDecoder().Bytes(all)
	w, _ := want.NewDecoder().Bytes(all)
	if !bytes.Equal(g, w) {
		t.Errorf("%s: bytes 00-FF decode to %+q, want %+q", what, g, w)
	}
}

func TestUSASCIIIsIanaindexsUSASCIIByteForByte(t *testing.T) {
	want, err := ianaindex.IANA.Encoding("US-ASCII")
	if err != nil || want == nil {
		t.Fatalf("ianaindex has no US-ASCII: %v", err)
	}
	t.Run("every byte, alone and all in a row, decodes the same", func(t *testing.T) {
		sameDecoding(t, "US-ASCII", usASCII, want)
	})
	t.Run("every BMP character encodes the same, strictly and as NCRs and replaced", func(t *testing.T) {
		for r := rune(0); r <= 0xFFFF; r++ {
			if r >= 0xD800 && r < 0xE000 {
				continue
			}
			s := "a" + string(r) + "b"
			for _, wrap := range []func(*encoding.Encoder) *encoding.Encoder{
				func(e *encoding.Encoder) *encoding.Encoder { return e },
				encoding.HTMLEscapeUnsupported, encoding.ReplaceUnsupported,
			} {
				g, gErr := wrap(usASCII.NewEncoder()).String(s)
				w, wErr := wrap(want.NewEncoder()).String(s)
				if g != w || (gErr == nil) != (wErr == nil) || gErr != nil && gErr.Error() != wErr.Error() {
					t.Fatalf("%U encodes to %q, %v; want %q, %v", r, g, gErr, w, wErr)
				}
			}
		}
	})
	t.Run("invalid UTF-8 and output too small for a U+FFFD fail the same", func(t *testing.T) {
		for _, s := range []string{"a\xffb", "\xe3\x81", strings.Repeat("\x80", 5000)} {
			g, gErr := encoding.HTMLEscapeUnsupported(usASCII.NewEncoder()).String(s)
			w, wErr := encoding.HTMLEscapeUnsupported(want.NewEncoder()).String(s)
			if g != w || (gErr == nil) != (wErr == nil) {
				t.Errorf("%+q encodes to %q, %v; want %q, %v", s, g, gErr, w, wErr)
			}
			gd, _ := usASCII.NewDecoder().String(s)
			wd, _ := want.NewDecoder().String(s)
			if gd != wd {
				t.Errorf("%+q decodes to %+q, want %+q", s, gd, wd)
			}
		}
	})
}

func TestTheLabelTableIsSortedLowerCaseUniqueAndIndexed(t *testing.T) {
	for i, e := range labels {
		if e.label != strings.ToLower(e.label) {
			t.Errorf("label %q is not lower-cased: Lookup could never find it", e.label)
		}
		if i > 0 && labels[i-1].label >= e.label {
			t.Errorf("labels %q, %q out of order or twice", labels[i-1].label, e.label)
		}
		if j := labelIndex(e.label); j != i {
			t.Errorf("labelIndex(%q) = %d, want %d", e.label, j, i)
		}
		if e.enc.encoding() == nil {
			t.Errorf("label %q: encoding %d is nil", e.label, e.enc)
		}
		if !utf8.ValidString(e.label) {
			t.Errorf("label %q is not UTF-8", e.label)
		}
	}
}

func TestTheLabelTableIsWhatGenlabelsWritesToday(t *testing.T) {
	g := goTool(t)
	out := filepath.Join(t.TempDir(), "lookup_labels.go")
	cmd := exec.Command(g, "run", "./internal/genlabels", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./internal/genlabels: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("lookup_labels.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("lookup_labels.go is not what internal/genlabels writes from this x/text: run go generate in decoder/charset")
	}
}
