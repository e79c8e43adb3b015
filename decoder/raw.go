package decoder

import "strings"

// Raw is a request's structure split on raw bytes, before any charset is
// applied: percent-decoded names, values and keywords as byte strings (Go
// strings may hold any bytes). Decode turns it into a Result.
type Raw struct {
	Kind     Kind
	Hint     *Hint     // from the head of the query string, if any
	Keywords []string  // ISINDEX words, percent-decoded
	Pairs    []RawPair // in order, duplicates kept
	// Context holds other bytes in the request's charset that are not form
	// fields, such as a URL's path segments: they count as evidence when
	// the charset is sniffed, and Decode leaves them alone.
	Context []string
	// Warnings are the problems found while splitting. The decoder adds
	// at most Limits.Warnings and counts the rest, which Decode reports.
	Warnings []string

	total        int // raw input bytes seen, for Limits.TotalBytes
	moreWarnings int // warnings past Limits.Warnings, not kept
}

// RawPair is one name=value pair before charset decoding.
type RawPair struct {
	Name, Value string
	Origin      string // where it came from: "query", "body", as the caller says
}

// SplitQuery splits a QUERY_STRING (RFC 3875 § 4.1.7) into r's structure:
// a leading charset hint, then ISINDEX words or FORM pairs.
//
// ISINDEX: the words are split on '+' before percent-decoding, so "%2B" is
// a literal plus inside a word ("foo+bar%2Bbaz" is "foo", "bar+baz"). Empty
// words ("a++b") are dropped, where Apache keeps them as empty argv words:
// an empty search word matches nothing and means nothing.
//
// FORM: see SplitURLEncoded.
func (d *Decoder) SplitQuery(query, origin string) (*Raw, error) {
	r := &Raw{}
	if h, rest, ok := ParseHint(query); ok {
		r.Hint = &h
		query = rest
	}
	r.Kind = classify(query)
	switch r.Kind {
	case ISINDEX:
		return r, d.splitKeywords(r, query, origin)
	case Form:
		return r, d.splitPairs(r, query, origin)
	}
	return r, nil
}

// SplitURLEncoded adds the pairs of an application/x-www-form-urlencoded
// body to r (WHATWG URL § 5.1 "application/x-www-form-urlencoded parsing"):
// split on '&' (and ';' with Options.Semicolon), each sequence at its first
// '=' (a sequence with none has an empty value), '+' is a space, then
// percent-decode. A malformed escape is kept as it is, with a warning, or is
// an *EscapeError with Options.Strict.
func (d *Decoder) SplitURLEncoded(r *Raw, body, origin string) error {
	if r.Kind == Empty {
		r.Kind = Form
	}
	return d.splitPairs(r, body, origin)
}

// SplitTextPlain adds the pairs of a text/plain form body (HTML §
// 4.10.21.8: "name=value" lines ended by CR LF) to r. The format cannot carry
// a '=' in a name nor a line break in a value; each line is split at its
// first '=', as browsers wrote it, and nothing is percent-decoded.
func (d *Decoder) SplitTextPlain(r *Raw, body, origin string) error {
	if r.Kind == Empty {
		r.Kind = Form
	}
	if err := d.addTotal(r, len(body)); err != nil {
		return err
	}
	for line := range strings.Lines(body) {
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" {
			continue
		}
		name, value, _ := strings.Cut(line, "=")
		if err := d.add(r, name, value, origin); err != nil {
			return err
		}
	}
	return nil
}

// Add adds one pair whose bytes need no percent-decoding, such as a
// multipart/form-data text part (RFC 7578), checking the Limits; its bytes
// count toward Limits.TotalBytes.
func (d *Decoder) Add(r *Raw, name, value, origin string) error {
	if err := d.addTotal(r, len(name)+len(value)); err != nil {
		return err
	}
	return d.add(r, name, value, origin)
}

// add is Add for pairs whose raw bytes were counted already.
func (d *Decoder) add(r *Raw, name, value, origin string) error {
	l := d.opts.Limits
	if len(r.Pairs) >= l.fields() {
		return &LimitError{Limit: "fields", Max: l.fields()}
	}
	if len(name) > l.nameBytes() {
		return &LimitError{Limit: "name bytes", Max: l.nameBytes()}
	}
	if len(value) > l.valueBytes() {
		return &LimitError{Limit: "value bytes", Max: l.valueBytes()}
	}
	if r.Kind == Empty {
		r.Kind = Form
	}
	r.Pairs = append(r.Pairs, RawPair{Name: name, Value: value, Origin: origin})
	return nil
}

func (d *Decoder) addTotal(r *Raw, n int) error {
	r.total += n
	if max := d.opts.Limits.totalBytes(); r.total > max {
		return &LimitError{Limit: "total bytes", Max: max}
	}
	return nil
}

func (d *Decoder) splitPairs(r *Raw, s, origin string) error {
	if err := d.addTotal(r, len(s)); err != nil {
		return err
	}
	next := func(s string) int { return strings.IndexByte(s, '&') }
	if d.opts.Semicolon {
		next = func(s string) int { return strings.IndexAny(s, "&;") }
	}
	if n := min(strings.Count(s, "&")+1, d.opts.Limits.fields()); cap(r.Pairs)-len(r.Pairs) < n {
		r.Pairs = append(make([]RawPair, 0, len(r.Pairs)+n), r.Pairs...)
	}
	for off := 0; off < len(s); {
		end := next(s[off:])
		if end < 0 {
			end = len(s)
		} else {
			end += off
		}
		seq := s[off:end]
		if seq != "" {
			rawName, rawValue, _ := strings.Cut(seq, "=")
			name, err := d.unescape(r, rawName, modeForm, origin, off, place{"field name", len(r.Pairs) + 1, ""})
			if err != nil {
				return err
			}
			value, err := d.unescape(r, rawValue, modeForm, origin, off+len(rawName)+1, place{"field value", len(r.Pairs) + 1, ""})
			if err != nil {
				return err
			}
			if err := d.add(r, name, value, origin); err != nil {
				return err
			}
		}
		off = end + 1
	}
	return nil
}

func (d *Decoder) splitKeywords(r *Raw, s, origin string) error {
	if err := d.addTotal(r, len(s)); err != nil {
		return err
	}
	max := d.opts.Limits.keywords()
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '+')
		if end < 0 {
			end = len(s)
		} else {
			end += off
		}
		if end > off {
			if len(r.Keywords) >= max {
				return &LimitError{Limit: "keywords", Max: max}
			}
			w, err := d.unescape(r, s[off:end], modeWord, origin, off, place{"keyword", len(r.Keywords) + 1, ""})
			if err != nil {
				return err
			}
			if len(w) > d.opts.Limits.valueBytes() {
				return &LimitError{Limit: "value bytes", Max: d.opts.Limits.valueBytes()}
			}
			r.Keywords = append(r.Keywords, w)
		}
		off = end + 1
	}
	return nil
}

// unescape percent-decodes one piece of the input, which starts at base and
// is where. Its malformed escapes are one warning, which names the first
// and counts them all; strict, the first is an *EscapeError.
func (d *Decoder) unescape(r *Raw, s string, mode escapeMode, origin string, base int, where place) (string, error) {
	out, bad := unescape(s, mode)
	if bad.n == 0 {
		return out, nil
	}
	at := bad.first[0]
	e := &EscapeError{Origin: origin, Offset: base + at, Escape: s[at:min(at+3, len(s))]}
	if d.opts.Strict {
		return "", e
	}
	next := bad.kept()[1:]
	for i := range next {
		next[i] += base
	}
	d.warnf(r, "%s offset %d: malformed escape %q kept as it is%s", origin, e.Offset, e.Escape,
		moreOf(bad.n, "malformed escapes in "+where.String(), next))
	return out, nil
}
