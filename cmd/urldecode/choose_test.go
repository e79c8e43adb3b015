package main

import (
	"reflect"
	"testing"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/sniff"
)

// recorder is a Sniffer that says what it was asked and answers a fixed guess.
type recorder struct {
	samples [][]byte
	ev      sniff.Evidence
	guess   sniff.Guess
	ok      bool
}

func (r *recorder) Sniff(samples [][]byte, ev sniff.Evidence) (sniff.Guess, bool) {
	r.samples, r.ev = samples, ev
	return r.guess, r.ok
}

// The one place the host reaches the sniffer: this checks that the .jp of
// the example is handed over, with the [EUC] family as the
// candidates and the path's bytes as a sample.
func TestTheHostIsTheSniffersEvidence(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in         string
		flagHost   string
		host       string
		candidates []string
		samples    []string
	}{
		{"a bare [EUC] hint sniffs among its family with the URL's host", "http:[EUC]//www.jacme.co.jp/%B0%F5%BA%FE.html",
			"", "www.jacme.co.jp", []string{"euc-jp", "euc-kr", "gbk"}, []string{"\xB0\xF5\xBA\xFE.html"}},
		{"an IDN host is handed over in its ASCII form", "http://xn--wgv71a119e.jp/%B0%F5?q=%BA%FE",
			"", "xn--wgv71a119e.jp", nil, []string{"\xB0\xF5", "\xBA\xFE"}},
		{"a path alone takes -host as evidence", "/search?q=%B0%F5&r=ascii", "www.jacme.co.jp", "www.jacme.co.jp", nil, []string{"\xB0\xF5"}},
		{"the URL's host beats -host", "http://example.kr/%B0%F5", "www.jacme.co.jp", "example.kr", nil, []string{"\xB0\xF5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{guess: sniff.Guess{Charset: "euc-jp", Confidence: 0.9}, ok: true}
			d := newURLDecoder(&config{Host: tc.flagHost})
			d.chooser.sniffer = rec
			res, err := d.decode(tc.in, tc.flagHost)
			if err != nil {
				t.Fatal(err)
			}
			if rec.ev.Host != tc.host || !reflect.DeepEqual(rec.ev.Candidates, tc.candidates) {
				t.Errorf("sniffer got host %q candidates %q, want %q %q", rec.ev.Host, rec.ev.Candidates, tc.host, tc.candidates)
			}
			var got []string
			for _, s := range rec.samples {
				got = append(got, string(s))
			}
			if !reflect.DeepEqual(got, tc.samples) {
				t.Errorf("samples %q, want %q", got, tc.samples)
			}
			if res.Choice.cs.Name() != "euc-jp" || res.Choice.confidence != 0.9 {
				t.Errorf("choice %s %v, want the sniffer's euc-jp 0.9", res.Choice.cs.Name(), res.Choice.confidence)
			}
		})
	}
}

func TestChoosingFollowsTheDocumentedOrder(t *testing.T) {
	euckr := charset.MustLookup("euc-kr")
	sjis := &decoder.Hint{Label: "Shift_JIS", Charset: "shift_jis"}
	eucjp := &decoder.Hint{Label: "EUC-JP", Charset: "euc-jp"}
	sample := [][]byte{{0xB0, 0xF5}}
	for _, tc := range []struct {
		name   string
		forced *charset.Charset
		ev     evidence
		want   string
		source decoder.Source
	}{
		{"-charset comes first: it forces its charset", euckr, evidence{urlHint: sjis, queryHint: eucjp, charsetField: "gbk", samples: sample}, "euc-kr", decoder.SourceConfig},
		{"then the hint after the scheme", nil, evidence{urlHint: sjis, queryHint: eucjp, charsetField: "gbk", samples: sample}, "shift_jis", decoder.SourceHint},
		{"then the query's hint", nil, evidence{queryHint: eucjp, charsetField: "gbk", samples: sample}, "euc-jp", decoder.SourceHint},
		{"then _charset_", nil, evidence{charsetField: "gbk", samples: sample}, "gbk", decoder.SourceCharsetField},
		{"then sniffing", nil, evidence{samples: sample}, "big5", decoder.SourceSniffed},
		{"and ASCII alone is UTF-8", nil, evidence{}, "utf-8", decoder.SourceDefault},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := chooser{forced: tc.forced, sniffer: &recorder{guess: sniff.Guess{Charset: "big5", Confidence: 0.5}, ok: true}}
			ch, err := c.choose(tc.ev)
			if err != nil {
				t.Fatal(err)
			}
			if ch.cs.Name() != tc.want || ch.source != tc.source {
				t.Errorf("got %s (%s), want %s (%s)", ch.cs.Name(), ch.source, tc.want, tc.source)
			}
		})
	}
	t.Run("an undecided family falls to its first member with a warning", func(t *testing.T) {
		c := chooser{sniffer: &recorder{ok: false}}
		ch, err := c.choose(evidence{urlHint: &decoder.Hint{Label: "EUC", Family: []string{"euc-jp", "euc-kr", "gbk"}}, samples: sample})
		if err != nil || ch.cs.Name() != "euc-jp" || ch.warning == "" || ch.confidence != 0 {
			t.Errorf("got %v %q %v, %v", ch.cs, ch.warning, ch.confidence, err)
		}
	})
	t.Run("an unknown hint is a CharsetError naming the label", func(t *testing.T) {
		_, err := chooser{}.choose(evidence{urlHint: &decoder.Hint{Label: "x-klingon", Charset: "x-klingon"}})
		ce, ok := err.(*decoder.CharsetError)
		if !ok || ce.Label != "x-klingon" || ce.Source != decoder.SourceHint {
			t.Errorf("got %#v", err)
		}
	})
}

// hostGuesser guesses by the host's TLD, so that a cache shared between
// hosts would show.
type hostGuesser struct{ calls int }

func (h *hostGuesser) Sniff(_ [][]byte, ev sniff.Evidence) (sniff.Guess, bool) {
	h.calls++
	if len(ev.Host) > 3 && ev.Host[len(ev.Host)-3:] == ".kr" {
		return sniff.Guess{Charset: "euc-kr", Confidence: 1}, true
	}
	return sniff.Guess{Charset: "euc-jp", Confidence: 1}, true
}

func TestTheSniffCacheKeepsHostsApartAndStaysBounded(t *testing.T) {
	g := &hostGuesser{}
	c := chooser{sniffer: g, cache: newSniffCache(2)}
	sample := [][]byte{{0xB0, 0xF5}}
	for i, tc := range []struct {
		host, want string
		calls      int
	}{
		{"example.jp", "euc-jp", 1},
		{"example.kr", "euc-kr", 2},
		{"example.jp", "euc-jp", 2}, // a hit
		{"example.kr", "euc-kr", 2}, // a hit
		{"other.kr", "euc-kr", 3},   // the cache is full: it starts afresh
		{"example.jp", "euc-jp", 4},
	} {
		ch, err := c.choose(evidence{samples: sample, host: tc.host})
		if err != nil {
			t.Fatal(err)
		}
		if ch.cs.Name() != tc.want || g.calls != tc.calls {
			t.Errorf("step %d (%s): %s after %d sniffs, want %s after %d", i+1, tc.host, ch.cs.Name(), g.calls, tc.want, tc.calls)
		}
		if len(c.cache.m) > 2 {
			t.Errorf("step %d: %d entries in a cache of 2", i+1, len(c.cache.m))
		}
	}
}
