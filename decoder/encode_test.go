package decoder

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder/charset"
)

func TestEncodeMatchesPython(t *testing.T) {
	for _, c := range readEncodeCases(t) {
		t.Run(c.Charset+" "+c.Text, func(t *testing.T) {
			got, err := EncodeForm([]Field{{Name: "v", Value: c.Text}}, EncodeOptions{Charset: c.Charset})
			if err != nil {
				t.Fatal(err)
			}
			if got != "v="+c.Value {
				t.Errorf("EncodeForm = %q, want %q", got, "v="+c.Value)
			}
			kw, err := EncodeKeywords(strings.Split(c.Text, " "), EncodeOptions{Charset: c.Charset})
			if err != nil {
				t.Fatal(err)
			}
			if kw != c.Keywords {
				t.Errorf("EncodeKeywords = %q, want %q", kw, c.Keywords)
			}
		})
	}
}

func TestEscapeKeepsOnlyTheClassicSet(t *testing.T) {
	// HTML 2.0 § 8.2.1 and the WHATWG urlencoded serializer: letters,
	// digits and "*-.@_" are kept (the serializer escapes '@'; Mosaic and
	// Netscape kept it), a space is '+', all else is %XX in upper case.
	kept := "*-.@_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	for c := 0; c < 256; c++ {
		var b strings.Builder
		Escape(&b, []byte{byte(c)})
		want := fmt.Sprintf("%%%02X", c)
		switch {
		case strings.IndexByte(kept, byte(c)) >= 0:
			want = string(rune(c))
		case c == ' ':
			want = "+"
		}
		if b.String() != want {
			t.Errorf("Escape(%#02x) = %q, want %q", c, b.String(), want)
		}
	}
}

func TestEncodeUnencodable(t *testing.T) {
	_, err := EncodeForm([]Field{{Name: "q", Value: "印刷€"}}, EncodeOptions{Charset: "shift_jis"})
	var u *charset.UnencodableError
	if !errors.As(err, &u) || u.Rune != '€' {
		t.Fatalf("err = %v, want *charset.UnencodableError for €", err)
	}
	got, err := EncodeForm([]Field{{Name: "q", Value: "a€"}}, EncodeOptions{Charset: "shift_jis", NCR: true})
	if err != nil {
		t.Fatal(err)
	}
	// A browser sends "&#8364;" for €, percent-encoded: %26%238364%3B.
	if got != "q=a%26%238364%3B" {
		t.Errorf("with NCR: %q, want q=a%%26%%238364%%3B", got)
	}
	res, err := New(Options{NCR: true, Charset: "shift_jis"}).DecodeQuery(got, Evidence{})
	if err != nil || res.Values("q")[0] != "a€" {
		t.Errorf("decoding the NCR form gave %v %v, want a€", res, err)
	}
}

// repertoire gives text each charset can encode: the characters its
// decoder yields for the test bytes Python made, plus ASCII.
func repertoire(t *testing.T) map[string][]rune {
	reps := map[string][]rune{}
	for _, c := range readEncodeCases(t) {
		for _, r := range c.Text {
			reps[c.Charset] = append(reps[c.Charset], r)
		}
	}
	return reps
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ascii := []rune("az AZ09 &=+%;#/-._*@~\"'<>")
	for cs, reps := range repertoire(t) {
		pool := append(append([]rune{}, reps...), ascii...)
		for i := 0; i < 200; i++ {
			var b strings.Builder
			for n := rng.IntN(12); n >= 0; n-- {
				b.WriteRune(pool[rng.IntN(len(pool))])
			}
			text := b.String()
			q, err := EncodeForm([]Field{{Name: "n" + text, Value: text}}, EncodeOptions{Charset: cs})
			if err != nil {
				t.Fatalf("%s: encode %q: %v", cs, text, err)
			}
			res, err := New(Options{Charset: cs}).DecodeQuery(q, Evidence{})
			if err != nil {
				t.Fatalf("%s: decode %q: %v", cs, q, err)
			}
			if len(res.Fields) != 1 || res.Fields[0].Name != "n"+text || res.Fields[0].Value != text {
				t.Fatalf("%s: %q -> %q -> %+v", cs, text, q, res.Fields)
			}
		}
	}
}

func TestEncodeKeywordsRoundTrip(t *testing.T) {
	words := []string{"foo", "bar+baz", "a=b", "印刷", "50%"}
	q, err := EncodeKeywords(words, EncodeOptions{Charset: "euc-jp"})
	if err != nil {
		t.Fatal(err)
	}
	if Classify(q) != ISINDEX {
		t.Fatalf("%q does not classify as ISINDEX", q)
	}
	res, err := New(Options{Charset: "euc-jp"}).DecodeQuery(q, Evidence{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Keywords, "|") != strings.Join(words, "|") {
		t.Errorf("%q decoded to %q, want %q", q, res.Keywords, words)
	}
	if !utf8.ValidString(q) || strings.ContainsAny(q, " =&") {
		t.Errorf("encoded query %q holds raw syntax", q)
	}
}
