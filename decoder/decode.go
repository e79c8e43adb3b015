package decoder

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/sniff"
)

// Decode chooses one charset for r from the evidence, in the order of the
// Source constants, and decodes every keyword, name and value with it.
//
// A label nobody knows is a *CharsetError naming the label and its source.
// Bytes invalid in the chosen charset become U+FFFD with a warning (with
// Options.Strict, a *CharsetError wrapping *charset.InvalidError). A NUL
// becomes U+FFFD with a warning as well: no decoded text holds U+0000, so
// none can cut a C string, a file name or an environment variable short.
// Each name, value and keyword has at most one warning of each kind, which
// counts them; the Result holds at most Limits.Warnings, then one line
// counting the rest (r's own warnings first).
func (d *Decoder) Decode(r *Raw, ev Evidence) (*Result, error) {
	ch, err := d.ChooseCharset(r, ev)
	if err != nil {
		return nil, err
	}
	return d.DecodeAs(r, ch)
}

// DecodeAs decodes r in the charset ch names, as Decode does once it has
// chosen: for a caller that decides the charset itself, such as `cgigate
// export -charset`, which decodes a recorded request again as if another
// charset had been chosen.
func (d *Decoder) DecodeAs(r *Raw, ch Choice) (*Result, error) {
	cs, src, conf := ch.Charset, ch.Source, ch.Confidence
	res := &Result{
		Kind:          r.Kind,
		Charset:       cs.Name(),
		CharsetSource: src,
		Confidence:    conf,
		Keywords:      make([]string, 0, len(r.Keywords)),
		Fields:        make([]Field, 0, len(r.Pairs)),
	}
	warns := &warnList{max: d.opts.Limits.warnings(), more: r.moreWarnings}
	for _, w := range r.Warnings {
		warns.add(w)
	}
	for i, k := range r.Keywords {
		w, err := d.text(warns, cs, src, k, place{"keyword", i + 1, ""})
		if err != nil {
			return nil, err
		}
		res.Keywords = append(res.Keywords, w)
	}
	for i, p := range r.Pairs {
		name, err := d.text(warns, cs, src, p.Name, place{"field name", i + 1, ""})
		if err != nil {
			return nil, err
		}
		value, err := d.text(warns, cs, src, p.Value, place{"field value", i + 1, name})
		if err != nil {
			return nil, err
		}
		res.Fields = append(res.Fields, Field{Name: name, Value: value, Origin: p.Origin})
	}
	res.Warnings = warns.done()
	return res, nil
}

// DecodeQuery is SplitQuery then Decode, for a query string alone.
func (d *Decoder) DecodeQuery(query string, ev Evidence) (*Result, error) {
	r, err := d.SplitQuery(query, "query")
	if err != nil {
		return nil, err
	}
	return d.Decode(r, ev)
}

// Choice is the charset chosen for a request, and where it came from.
type Choice struct {
	Charset    *charset.Charset
	Source     Source
	Confidence float64 // of a sniffed charset; 1 when a source named it
}

// ChooseCharset chooses r's charset as Decode does, without decoding
// anything: for a caller whose bytes are not all form fields, such as a URL
// whose path shares its query's charset (see Raw.Context). A family hint
// that sniffing cannot narrow adds a warning to r.
func (d *Decoder) ChooseCharset(r *Raw, ev Evidence) (Choice, error) {
	for _, s := range sources {
		label, family, ok := s.propose(d, r, ev)
		if !ok {
			continue
		}
		conf := 1.0
		switch {
		case family != nil && !r.needsCharset():
			// ASCII reads alike in every member: there is nothing to tell.
			label = family[0]
		case family != nil || s.source() == SourceSniffed:
			guess, ok := d.sniffer().Sniff(r.samples(), sniff.Evidence{
				AcceptLanguage: ev.AcceptLanguage, Host: ev.Host, Candidates: family,
			})
			switch {
			case ok:
				label, conf = guess.Charset, guess.Confidence
			case family != nil:
				// Nothing told the family's members apart: its first is
				// the most used, and the warning says it was a guess.
				label, conf = family[0], 0
				d.warnf(r, "charset hint [%s]: could not tell which of %v the bytes are in; decoded as %s", r.Hint.Label, family, label)
			default:
				continue // sniffing found nothing: fall through to the default
			}
		}
		cs, err := charset.Lookup(label)
		if err != nil {
			return Choice{}, &CharsetError{Source: s.source(), Label: label, Err: err}
		}
		if s.source() == SourceSniffed && conf < LowConfidence {
			d.warnLowConfidence(r, ev, cs, conf)
		}
		return Choice{Charset: cs, Source: s.source(), Confidence: conf}, nil
	}
	return Choice{Charset: charset.UTF8, Source: SourceDefault, Confidence: 1}, nil
}

// place says where a piece of text stood, for warnings; it is formatted
// only when there is something to warn about, with a long name cut short.
type place struct {
	what  string
	index int
	name  string
}

func (p place) String() string {
	if p.name != "" {
		return fmt.Sprintf("%s %d (%s)", p.what, p.index, shortName(p.name))
	}
	return fmt.Sprintf("%s %d", p.what, p.index)
}

// text decodes one piece of r in cs, adding to warns one warning for each
// kind of problem it holds.
func (d *Decoder) text(warns *warnList, cs *charset.Charset, src Source, raw string, where place) (string, error) {
	s, bad := cs.DecodeString(raw)
	if bad.N > 0 {
		b := bad.First[0]
		if d.opts.Strict {
			return "", &CharsetError{Source: src, Label: cs.Name(), Err: &charset.InvalidError{
				Charset: cs.Name(), Offset: b.Offset, Bytes: []byte(raw[b.Offset : b.Offset+b.Len]),
			}}
		}
		var next []int
		for _, x := range bad.First[1:] {
			next = append(next, x.Offset)
		}
		warns.addf("%s: bytes % X at offset %d are invalid in %s, replaced by U+FFFD%s",
			where, raw[b.Offset:b.Offset+b.Len], b.Offset, cs.Name(),
			moreOf(bad.N, fmt.Sprintf("invalid sequences (%d bytes)", bad.Bytes), next))
	}
	if n := strings.Count(s, "\x00"); n > 0 {
		if d.opts.Strict {
			return "", &CharsetError{Source: src, Label: cs.Name(), Err: errNUL}
		}
		if n == 1 {
			warns.addf("%s: NUL replaced by U+FFFD", where)
		} else {
			warns.addf("%s: %d NULs replaced by U+FFFD", where, n)
		}
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	if d.opts.NCR && strings.Contains(s, "&#") {
		var bad badNCRs
		s, bad = expandNCRs(s)
		if bad.n > 0 {
			warns.addf("%s: character reference %q is not a character, kept as written%s",
				where, bad.first, moreOf(bad.n, "such references", nil))
		}
	}
	return s, nil
}

var errNUL = errors.New("NUL byte in decoded text")
