package cgi

import (
	"math/rand/v2"
	"net/textproto"
	"strings"
	"testing"
)

// headerName names a header as net/http/cgi does, with textproto's
// canonical form: every byte alone and beside letters, and random names of
// letters, '_', digits, token punctuation, a space and bytes past ASCII.
func TestHeaderNamesAreWhatTextprotoCanonicalizes(t *testing.T) {
	var names []string
	for c := range 256 {
		b := string([]byte{byte(c)})
		names = append(names, b, "x"+b+"y", "ACCEPT"+b+"LANGUAGE", b+"_"+b)
	}
	pieces := []string{"A", "b", "_", "-", "9", "!", "~", "`", " ", ":", "\xc3\xa9", "\x7f", "ACCEPT", "user", "X_FORWARDED", "ÿ"}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		names = append(names, b.String())
	}
	for _, name := range names {
		want := textproto.CanonicalMIMEHeaderKey(strings.ReplaceAll(name, "_", "-"))
		if got := headerName(name); got != want {
			t.Errorf("headerName(%q) = %q, textproto says %q", name, got, want)
		}
	}
}
