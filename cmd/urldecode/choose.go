package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

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
// its charset, then hints, the _charset_ field, sniffing, UTF-8. Past
// -charset it is decoder's source order (hint, _charset_, sniffed,
// default), over the samples of the whole URL rather than of the query
// alone, since a 1990s browser sent the path in the same charset as the
// query.
//
// A label that names nothing is a *decoder.CharsetError naming it.
func (c chooser) choose(ev evidence) (choice, error) {
	if c.forced != nil {
		return choice{cs: c.forced, source: decoder.SourceConfig, confidence: 1}, nil
	}
	for _, h := range []*decoder.Hint{ev.urlHint, ev.queryHint} {
		if h == nil {
			continue
		}
		if h.Family != nil {
			ch := c.sniff(ev, h.Family)
			ch.source, ch.hint, ch.family = decoder.SourceHint, h.Label, h.Family
			return ch, nil
		}
		cs, err := charset.Lookup(h.Charset)
		if err != nil {
			return choice{}, &decoder.CharsetError{Source: decoder.SourceHint, Label: h.Label, Err: err}
		}
		return choice{cs: cs, source: decoder.SourceHint, confidence: 1, hint: h.Label}, nil
	}
	if ev.charsetField != "" {
		cs, err := charset.Lookup(ev.charsetField)
		if err != nil {
			return choice{}, &decoder.CharsetError{Source: decoder.SourceCharsetField, Label: ev.charsetField, Err: err}
		}
		return choice{cs: cs, source: decoder.SourceCharsetField, confidence: 1}, nil
	}
	if len(ev.samples) > 0 {
		if ch := c.sniff(ev, nil); ch.cs != nil {
			return ch, nil
		}
	}
	return choice{cs: charset.UTF8, source: decoder.SourceDefault, confidence: 1}, nil
}

// sniff asks the detector, with the host as evidence. Within a family, an
// undecided guess falls to the family's first member with a warning, as
// decoder does; otherwise it yields no charset and the default applies.
func (c chooser) sniff(ev evidence, family []string) choice {
	if len(ev.samples) == 0 && family != nil {
		// ASCII reads alike in every member: no guess to make.
		if cs, err := charset.Lookup(family[0]); err == nil {
			return choice{cs: cs, confidence: 1}
		}
	}
	s := c.sniffer
	if s == nil {
		s = sniff.Detector{}
	}
	sev := sniff.Evidence{Host: ev.host, Candidates: family}
	var g sniff.Guess
	var ok bool
	if c.cache == nil {
		g, ok = s.Sniff(ev.samples, sev)
	} else {
		key := sniffKey(ev.samples, sev)
		a, hit := c.cache.m[key]
		if !hit {
			a.g, a.ok = s.Sniff(ev.samples, sev)
			if len(c.cache.m) >= c.cache.max {
				clear(c.cache.m)
			}
			c.cache.m[key] = a
		}
		g, ok = a.g, a.ok
	}
	if ok {
		if cs, err := charset.Lookup(g.Charset); err == nil {
			return choice{cs: cs, source: decoder.SourceSniffed, confidence: g.Confidence}
		}
	}
	if family == nil {
		return choice{}
	}
	cs, err := charset.Lookup(family[0])
	if err != nil {
		cs = charset.UTF8
	}
	return choice{cs: cs, confidence: 0, warning: fmt.Sprintf(
		"could not tell which of %s the bytes are in; decoded as %s", strings.Join(family, ", "), cs.Name())}
}

// needsCharset is true of bytes that some charset reads differently from
// ASCII: bytes with the high bit set, and ESC, which opens ISO-2022-JP's
// escape sequences.
func needsCharset(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] == 0x1B {
			return true
		}
	}
	return false
}
