package main

import (
	"fmt"
	"strings"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/sniff"
)

// choice is the one charset of a URL and why.
type choice struct {
	cs         *charset.Charset
	source     decoder.Source
	confidence float64
	hint       string   // the hint's label, when a hint decided
	family     []string // the members a bare family hint ("[EUC]") left to sniffing
	warning    string
}

// evidence is what one URL offers for choosing its charset.
type evidence struct {
	urlHint      *decoder.Hint // after the scheme: "http:[EUC]//..."
	queryHint    *decoder.Hint // at the head of the query: "?[EUC-JP]:..."
	charsetField string        // the value of a "_charset_" field
	samples      [][]byte      // every piece of the URL a charset could read differently
	host         string        // the host (ASCII form), whose TLD is a prior
}

// chooser picks charsets. forced is -charset; sniffer is the detector,
// injectable so that tests can see the evidence it is handed.
type chooser struct {
	forced  *charset.Charset
	sniffer sniff.Sniffer
	cache   *sniffCache // nil: sniff every time
}

// sniffCache remembers guesses for the same samples under the same
// evidence: a log repeats its popular searches, and sniffing is most of
// the cost of a line. It holds at most max entries and starts afresh when
// full, so memory stays bounded however long the log.
type sniffCache struct {
	max int
	m   map[string]sniffAnswer
}

type sniffAnswer struct {
	g  sniff.Guess
	ok bool
}

func newSniffCache(max int) *sniffCache {
	return &sniffCache{max: max, m: make(map[string]sniffAnswer)}
}

func sniffKey(samples [][]byte, ev sniff.Evidence) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%s", len(ev.Host), ev.Host)
	for _, c := range ev.Candidates {
		b.WriteString("\x00" + c) // labels hold no NUL
	}
	for _, s := range samples {
		fmt.Fprintf(&b, "\x01%d:", len(s))
		b.Write(s)
	}
	return b.String()
}

// choose applies the order the command documents: -charset, which forces
// its charset, then decoder's own choice (hint, _charset_, sniffed,
// default) over the samples of the whole URL rather than of the query
// alone, since a 1990s browser sent the path in the same charset as the
// query.
//
// A label that names nothing is a *decoder.CharsetError naming it.
func (c chooser) choose(ev evidence) (choice, error) {
	if c.forced != nil {
		return choice{cs: c.forced, source: decoder.SourceConfig, confidence: 1}, nil
	}
	raw := &decoder.Raw{Hint: ev.urlHint}
	if raw.Hint == nil {
		raw.Hint = ev.queryHint
	}
	if ev.charsetField != "" {
		raw.Pairs = []decoder.RawPair{{Name: "_charset_", Value: ev.charsetField}}
	}
	for _, s := range ev.samples {
		raw.Context = append(raw.Context, string(s))
	}
	var s sniff.Sniffer = cachedSniffer{c.sniffer, c.cache}
	ch, err := decoder.New(decoder.Options{Sniffer: s}).ChooseCharset(raw, decoder.Evidence{Host: ev.host})
	if err != nil {
		return choice{}, err
	}
	out := choice{cs: ch.Charset, source: ch.Source, confidence: ch.Confidence}
	if ch.Source == decoder.SourceHint {
		out.hint, out.family = raw.Hint.Label, raw.Hint.Family
	}
	if len(raw.Warnings) > 0 {
		out.warning = raw.Warnings[0]
	}
	return out, nil
}

// cachedSniffer asks the detector (sniff.Detector when nil) through the
// cache, when there is one.
type cachedSniffer struct {
	s     sniff.Sniffer
	cache *sniffCache
}

func (c cachedSniffer) Sniff(samples [][]byte, ev sniff.Evidence) (sniff.Guess, bool) {
	s := c.s
	if s == nil {
		s = sniff.Detector{}
	}
	if c.cache == nil {
		return s.Sniff(samples, ev)
	}
	key := sniffKey(samples, ev)
	a, hit := c.cache.m[key]
	if !hit {
		a.g, a.ok = s.Sniff(samples, ev)
		if len(c.cache.m) >= c.cache.max {
			clear(c.cache.m)
		}
		c.cache.m[key] = a
	}
	return a.g, a.ok
}
