package decoder

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/sniff"
)

// LowConfidence is the confidence under which a sniffed charset is
// reported as a guess, with a warning that names the other likely
// readings of the bytes. On the sniffer's corpus (testdata/sniff, each
// string sniffed with no other evidence) 0.8 flags 17 of the 26 wrong
// guesses and 33 of the 624 right ones; 0.9 would flag 22 wrong and 71
// right. The warning is for whoever reads the record: `cgigate export
// -charset` decodes a submission again from its raw bytes.
const LowConfidence = 0.8

// maxReadings is how many other readings the warning names.
const maxReadings = 3

// shownReadingRunes bounds the text of each reading the warning shows,
// and shownReadingBytes what it takes once quoted: a control character is
// four bytes there (\x00), so four readings of 24 such characters would
// make the warning longer than the others (512 bytes; FuzzDecodeIsBoundedByInput).
const (
	shownReadingRunes = 24
	shownReadingBytes = 72
)

// warnLowConfidence adds to r the warning for a sniffed charset cs of
// confidence conf under LowConfidence: the text as cs reads it, and as the
// likeliest other charsets would (sniff.Readings; a few more sniffs, only
// for such a request).
func (d *Decoder) warnLowConfidence(r *Raw, ev Evidence, cs *charset.Charset, conf float64) {
	samples := r.samples()
	if len(samples) == 0 {
		return
	}
	first := sniff.Guess{Charset: cs.Name(), Confidence: conf}
	sev := sniff.Evidence{AcceptLanguage: ev.AcceptLanguage, Host: ev.Host}
	var others []string
	for _, g := range sniff.Readings(d.sniffer(), samples, sev, first, maxReadings) {
		if o, err := charset.Lookup(g.Charset); err == nil {
			others = append(others, fmt.Sprintf("%s %q", o.Name(), reading(o, samples[0])))
		}
	}
	also := "no other charset reads them without error"
	if len(others) > 0 {
		also = "they may also be " + strings.Join(others, ", ")
	}
	d.warnf(r, "charset sniffed as %s with confidence %.2f, under %.2f: the bytes read %q in it; %s",
		cs.Name(), conf, LowConfidence, reading(cs, samples[0]), also)
}

// reading is the start of sample as cs decodes it: at most
// shownReadingRunes characters, and at most shownReadingBytes once %q has
// quoted them.
func reading(cs *charset.Charset, sample []byte) string {
	text, _ := cs.Decode(sample)
	text = strings.ToValidUTF8(text, string(utf8.RuneError))
	n, quoted := 0, 0
	for i, r := range text {
		q := len(strconv.Quote(string(r))) - 2
		if n == shownReadingRunes || quoted+q > shownReadingBytes {
			return text[:i] + "…"
		}
		n, quoted = n+1, quoted+q
	}
	return text
}
