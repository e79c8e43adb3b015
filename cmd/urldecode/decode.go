package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/idn"
)

// urlDecoder decodes inputs into their parts with fixed settings.
type urlDecoder struct {
	c       *config
	chooser chooser
	dec     *decoder.Decoder
	host    idn.Options
}

func newURLDecoder(c *config) *urlDecoder {
	return &urlDecoder{
		c:       c,
		chooser: chooser{forced: c.cs, cache: newSniffCache(4096)},
		dec:     decoder.New(decoder.Options{NCR: c.NCR}),
		host:    idn.Options{Legacy: c.LegacyIDN},
	}
}

// decoded is one input taken apart and decoded.
type decoded struct {
	Input string
	Kind  inputKind
	Raw   rawURL

	User, Password string // decoded user information
	UserLegacy     bool   // the user part was in a 2000-era encoding

	HostOK      bool
	Host        idn.Host // when HostOK
	HostDecoded string   // the host percent-decoded, when it did not parse

	Port        int
	HasPort     bool // Port is set: given, or the scheme's default
	PortDefault bool

	Opaque   bool     // a path that is not a list of segments ("mailto:a@b")
	Address  bool     // the opaque path is a mailto: address, User and Host its parts
	Segments []string // decoded; nil when there is no path

	Query    *decoder.Result // nil without a query
	Fragment string

	Choice   choice
	Warnings []string
	// Failed lists what could not be decoded; any makes the exit status 1.
	Failed []error
}

// undecodableError says that some bytes were invalid in the chosen
// charset. It names the first piece that held any, and how many others did.
type undecodableError struct {
	Charset string
	Where   string // "path segment 2", "query field value 1", ...
	Offset  int    // of the first invalid bytes in that piece, once percent-decoded
	Bytes   []byte
	More    int // further pieces with invalid bytes
}

func (e *undecodableError) Error() string {
	s := fmt.Sprintf("%s: bytes % X at offset %d are invalid in %s, replaced by U+FFFD", e.Where, e.Bytes, e.Offset, e.Charset)
	if e.More > 0 {
		s += fmt.Sprintf(" (and in %d more pieces)", e.More)
	}
	return s
}

// decode takes one input apart. The error is non-nil only when nothing can
// be shown (a charset named that does not exist, a query beyond the limits);
// lesser faults are in Failed.
func (d *urlDecoder) decode(text, evidenceHost string) (*decoded, error) {
	out := &decoded{Input: text}
	var ev evidence
	if h, rest, ok := decoder.ParseURLHint(text); ok && classifyInput(rest) == kindURL {
		ev.urlHint, text = &h, rest
	}
	out.Kind = classifyInput(text)
	u := splitURL(text, out.Kind)
	out.Raw = u
	special := idn.IsSpecialScheme(u.Scheme)

	// Percent-decode every piece to bytes, collecting the samples that
	// will choose the charset.
	var pieces []piece
	add := func(where, s string) int {
		b, bad := percentDecode(s)
		out.Warnings = append(out.Warnings, malformedWarnings(where, s, bad)...)
		pieces = append(pieces, piece{where: where, raw: b})
		if decoder.NeedsCharset(b) {
			ev.samples = append(ev.samples, []byte(b))
		}
		return len(pieces) - 1
	}
	user, pass := -1, -1
	if u.HasUserinfo {
		name, pw, hasPW := strings.Cut(u.Userinfo, ":")
		user = add("user", name)
		if hasPW {
			pass = add("password", pw)
		}
	}
	first := len(pieces)
	if (out.Kind == kindURL && !u.HasAuthority || out.Kind == kindPath) && u.Path != "" && u.Path[0] != '/' {
		out.Opaque = true
		add("path", u.Path)
	} else {
		path := u.Path
		if path == "" && special {
			path = "/" // the URL Standard's path of "http://host"
		}
		for i, s := range segments(path, special) {
			add(fmt.Sprintf("path segment %d", i+1), s)
		}
	}
	last := len(pieces)
	frag := -1
	if u.HasFragment {
		frag = add("fragment", u.Fragment)
	}
	var raw *decoder.Raw
	if u.HasQuery {
		r, err := d.dec.SplitQuery(u.Query, "query")
		if err != nil {
			return nil, err
		}
		raw = r
		ev.queryHint = raw.Hint
		for _, k := range raw.Keywords {
			if decoder.NeedsCharset(k) {
				ev.samples = append(ev.samples, []byte(k))
			}
		}
		for _, p := range raw.Pairs {
			for _, s := range []string{p.Name, p.Value} {
				if decoder.NeedsCharset(s) {
					ev.samples = append(ev.samples, []byte(s))
				}
			}
			if p.Name == "_charset_" && p.Value != "" && ev.charsetField == "" {
				ev.charsetField = p.Value
			}
		}
	}

	// The host: the URL Standard's host parser for special schemes, its
	// opaque host (kept percent-encoded, § 3.5) for the others.
	ev.host = evidenceHost
	if u.HasAuthority {
		d.decodeHost(out, special)
		if out.HostOK {
			ev.host = out.Host.ASCII
		}
		if u.HasPort {
			n, present, err := parsePort(u.Port)
			if err != nil {
				out.Failed = append(out.Failed, err)
			}
			out.Port, out.HasPort = n, present
			if present {
				if def, ok := idn.DefaultPort(u.Scheme); ok && int(def) == n {
					out.PortDefault = true
				}
			}
		}
		if !out.HasPort {
			if def, ok := idn.DefaultPort(u.Scheme); ok {
				out.Port, out.HasPort, out.PortDefault = int(def), true, true
			}
		}
	}

	ch, err := d.chooser.choose(ev)
	if err != nil {
		return nil, err
	}
	out.Choice = ch
	if ch.warning != "" {
		out.Warnings = append(out.Warnings, ch.warning)
	}

	var undecodable *undecodableError
	note := func(where, raw string, bad []charset.Invalid) {
		switch {
		case len(bad) == 0:
		case undecodable == nil:
			b := bad[0]
			undecodable = &undecodableError{Charset: ch.cs.Name(), Where: where, Offset: b.Offset,
				Bytes: []byte(raw[b.Offset : b.Offset+b.Len])}
		default:
			undecodable.More++
		}
	}
	text1 := func(p piece) string {
		s, bad := ch.cs.Decode([]byte(p.raw))
		note(p.where, p.raw, bad)
		for _, b := range bad {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: bytes % X at offset %d are invalid in %s, replaced by U+FFFD",
				p.where, p.raw[b.Offset:b.Offset+b.Len], b.Offset, ch.cs.Name()))
		}
		if strings.IndexByte(s, 0) >= 0 {
			out.Warnings = append(out.Warnings, p.where+": NUL replaced by U+FFFD")
			s = strings.ReplaceAll(s, "\x00", "\uFFFD")
		}
		return s
	}
	if user >= 0 {
		out.User = text1(pieces[user])
		if d.c.LegacyIDN {
			var warns []string
			out.User, out.UserLegacy, warns = decodeLegacyLabels(out.User)
			out.Warnings = append(out.Warnings, warns...)
		}
	}
	if pass >= 0 {
		out.Password = text1(pieces[pass])
	}
	for _, p := range pieces[first:last] {
		out.Segments = append(out.Segments, text1(p))
	}
	if out.Opaque && u.Scheme == "mailto" {
		d.decodeAddress(out)
	}
	if frag >= 0 {
		out.Fragment = text1(pieces[frag])
	}
	if raw != nil {
		for _, p := range queryPieces(raw) {
			if !ch.cs.Valid([]byte(p.raw)) {
				_, bad := ch.cs.Decode([]byte(p.raw))
				note(p.where, p.raw, bad)
			}
		}
		// The one charset is chosen; hand it to decoder as the query's
		// hint, which it consults first, so that it does not choose
		// again from the query alone.
		raw.Hint = &decoder.Hint{Label: ch.cs.Name(), Charset: ch.cs.Name()}
		res, err := d.dec.Decode(raw, decoder.Evidence{Host: ev.host})
		if err != nil {
			return nil, err
		}
		res.CharsetSource, res.Confidence = ch.source, ch.confidence
		out.Query = res
		out.Warnings = append(out.Warnings, res.Warnings...)
	}
	if undecodable != nil {
		out.Failed = append(out.Failed, undecodable)
	}
	return out, nil
}

// piece is one percent-decoded component, bytes in no charset yet.
type piece struct {
	where string
	raw   string
}

// queryPieces names the byte strings of a split query as decoder's
// warnings name them.
func queryPieces(r *decoder.Raw) []piece {
	var out []piece
	for i, k := range r.Keywords {
		out = append(out, piece{fmt.Sprintf("keyword %d", i+1), k})
	}
	for i, p := range r.Pairs {
		out = append(out, piece{fmt.Sprintf("field name %d", i+1), p.Name}, piece{fmt.Sprintf("field value %d", i+1), p.Value})
	}
	return out
}

func (d *urlDecoder) decodeHost(out *decoded, special bool) {
	raw := out.Raw.Host
	if !special || raw == "" && out.Raw.Scheme == "file" {
		out.HostDecoded = raw
		return
	}
	h, err := d.host.ParseHost(raw)
	if err != nil {
		out.HostDecoded, _ = percentDecode(raw)
		out.Failed = append(out.Failed, err)
		return
	}
	out.Host, out.HostOK = h, true
}

// decodeAddress reads the address of a mailto: URL (RFC 6068 § 2) as an
// address: the domain after the last '@' as a host, the local part, with
// -legacy-idn, in the 2000-era label encodings. Only a single address
// without headers is taken apart.
func (d *urlDecoder) decodeAddress(out *decoded) {
	addr := out.Segments[0]
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || strings.ContainsAny(addr, ",") {
		return
	}
	user, host := addr[:at], addr[at+1:]
	h, err := d.host.ParseHost(host)
	if err != nil {
		out.Failed = append(out.Failed, err)
		return
	}
	if d.c.LegacyIDN {
		var warns []string
		user, out.UserLegacy, warns = decodeLegacyLabels(user)
		out.Warnings = append(out.Warnings, warns...)
	}
	out.User, out.Host, out.HostOK, out.Address = user, h, true, true
}

// handle decodes one input and prints it.
func (d *urlDecoder) handle(in input, w *bufio.Writer) error {
	res, err := d.decode(in.text, d.c.Host)
	if err != nil {
		if d.c.JSON {
			writeJSON(w, errorJSON{Line: in.line, Input: in.text, Error: err.Error()})
		}
		return err
	}
	if d.c.JSON {
		writeJSON(w, res.json(in.line))
	} else {
		res.writeText(w)
	}
	return joinFailed(res.Failed)
}

// joinFailed makes one line of every fault of an input.
func joinFailed(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return faults(errs)
}

type faults []error

func (f faults) Error() string {
	var b strings.Builder
	for i, e := range f {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

func (f faults) Unwrap() []error { return f }
