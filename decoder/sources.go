package decoder

import "unicode/utf8"

// Source names where the charset of a request came from.
type Source string

// The sources, in the order they are consulted: the first that has
// something to say decides.
const (
	SourceHint         Source = "hint"         // "[charset:encoding]:" at the head of the query
	SourceCharsetField Source = "_charset_"    // the form field HTML § 4.10.21.4 fills in
	SourceContentType  Source = "content-type" // the body's Content-Type charset parameter
	SourceForm         Source = "form"         // Options.FormCharset, the charset a site declared for the form
	SourceConfig       Source = "config"       // Options.Charset, the deployment's choice
	SourceSniffed      Source = "sniffed"      // detected from the bytes
	SourceDefault      Source = "default"      // UTF-8
)

// Evidence is what a request says about itself beyond its form bytes.
type Evidence struct {
	ContentTypeCharset string // charset parameter of the body's Content-Type
	AcceptLanguage     string // the Accept-Language header, a prior for sniffing
	Host               string // the host the request was sent to; its TLD is a prior
}

// A charsetSource proposes a charset from one kind of evidence. It returns
// a label, or a family of WHATWG names to sniff among, and ok false when it
// has nothing to say.
type charsetSource interface {
	source() Source
	propose(d *Decoder, r *Raw, ev Evidence) (label string, family []string, ok bool)
}

// sources is the one list that orders the evidence.
var sources = []charsetSource{
	hintSource{}, charsetFieldSource{}, contentTypeSource{}, formSource{}, configSource{}, sniffSource{}, defaultSource{},
}

type hintSource struct{}

func (hintSource) source() Source { return SourceHint }
func (hintSource) propose(_ *Decoder, r *Raw, _ Evidence) (string, []string, bool) {
	if r.Hint == nil {
		return "", nil, false
	}
	if r.Hint.Family != nil {
		return r.Hint.Label, r.Hint.Family, true
	}
	return r.Hint.Charset, nil, true
}

// charsetFieldName is the field a browser fills with its form's encoding
// (HTML § 4.10.21.4 "constructing the entry list", step for "_charset_").
// Names are ASCII, so it is found in the raw bytes before any decoding.
const charsetFieldName = "_charset_"

type charsetFieldSource struct{}

func (charsetFieldSource) source() Source { return SourceCharsetField }
func (charsetFieldSource) propose(_ *Decoder, r *Raw, _ Evidence) (string, []string, bool) {
	for _, p := range r.Pairs {
		if p.Name == charsetFieldName && p.Value != "" {
			return p.Value, nil, true
		}
	}
	return "", nil, false
}

type contentTypeSource struct{}

func (contentTypeSource) source() Source { return SourceContentType }
func (contentTypeSource) propose(_ *Decoder, _ *Raw, ev Evidence) (string, []string, bool) {
	return ev.ContentTypeCharset, nil, ev.ContentTypeCharset != ""
}

// formSource is the charset of the page that holds the form the request
// was sent to, as the site declared it: it knows better than the
// deployment's one charset, and far better than a guess.
type formSource struct{}

func (formSource) source() Source { return SourceForm }
func (formSource) propose(d *Decoder, _ *Raw, _ Evidence) (string, []string, bool) {
	return d.opts.FormCharset, nil, d.opts.FormCharset != ""
}

type configSource struct{}

func (configSource) source() Source { return SourceConfig }
func (configSource) propose(d *Decoder, _ *Raw, _ Evidence) (string, []string, bool) {
	return d.opts.Charset, nil, d.opts.Charset != ""
}

// sniffSource speaks only when some bytes are not ASCII: ASCII decodes the
// same in every charset a form may use, and then the default is the truth.
type sniffSource struct{}

func (sniffSource) source() Source { return SourceSniffed }
func (sniffSource) propose(d *Decoder, r *Raw, _ Evidence) (string, []string, bool) {
	if d.opts.NoSniff || !r.needsCharset() {
		return "", nil, false
	}
	return "", snifferCandidates, true
}

type defaultSource struct{}

func (defaultSource) source() Source { return SourceDefault }
func (defaultSource) propose(*Decoder, *Raw, Evidence) (string, []string, bool) {
	return "utf-8", nil, true
}

// snifferCandidates is nil: the sniffer's own candidate list applies.
var snifferCandidates = []string(nil)

func (r *Raw) needsCharset() bool {
	for _, k := range r.Keywords {
		if NeedsCharset(k) {
			return true
		}
	}
	for _, p := range r.Pairs {
		if NeedsCharset(p.Name) || NeedsCharset(p.Value) {
			return true
		}
	}
	for _, c := range r.Context {
		if NeedsCharset(c) {
			return true
		}
	}
	return false
}

// NeedsCharset reports whether some charset reads s differently from
// ASCII: s holds a byte with the high bit set, or ESC, which starts
// ISO-2022-JP's escape sequences. Only such strings are worth sniffing, or
// handing to Raw.Context.
func NeedsCharset(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] == 0x1B {
			return true
		}
	}
	return false
}
