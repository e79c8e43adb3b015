package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/idn"
)

// encodeJSON is one encoded input.
type encodeJSON struct {
	Line    int    `json:"line"`
	Input   string `json:"input"`
	Kind    string `json:"kind"` // "url", "path", "form", "isindex", "host"
	Encoded string `json:"encoded"`
	Charset string `json:"charset"`
}

func (c *config) encodeCharset() *charset.Charset {
	if c.cs != nil {
		return c.cs
	}
	return charset.UTF8
}

// handleEncode encodes one text: a URL or request target part by part,
// else name=value pairs (split on '&' and each at its first '=', the
// structure decoding finds) or ISINDEX words (split on spaces), the
// classic form way (HTML 2.0 § 8.2.1, RFC 3875 § 4.4).
func (c *config) handleEncode(in input, w *bufio.Writer) error {
	opts := decoder.EncodeOptions{Charset: c.encodeCharset().Name(), NCR: c.NCR}
	var kind, out string
	var err error
	switch k := classifyInput(in.text); {
	case k == kindURL || k == kindPath:
		kind = map[inputKind]string{kindURL: "url", kindPath: "path"}[k]
		out, err = c.encodeURL(splitURL(in.text, k), k, opts)
	case strings.Contains(in.text, "="):
		kind = "form"
		out, err = c.encodeForm(splitForm(strings.TrimPrefix(in.text, "?")), opts)
	default:
		kind = "isindex"
		out, err = c.encodeKeywords(strings.Fields(strings.TrimPrefix(in.text, "?")), opts)
	}
	if err != nil {
		if c.JSON {
			writeJSON(w, errorJSON{Line: in.line, Input: in.text, Error: err.Error()})
		}
		return err
	}
	if c.JSON {
		writeJSON(w, encodeJSON{Line: in.line, Input: in.text, Kind: kind, Encoded: out, Charset: opts.Charset})
	} else {
		fmt.Fprintln(w, out)
	}
	return nil
}

// encodeForm and encodeKeywords are decoder's classic encoders, or with
// -whatwg the URL Standard's application/x-www-form-urlencoded serializer
// (WHATWG URL § 5.2), which a browser of today uses: its percent-encode
// set is the classic one plus '@' (the component percent-encode set holds
// it). Every '@' the classic escaper leaves is the byte 0x40, a lone '@' or
// a Shift_JIS or Big5 trail byte alike, so writing each as "%40" is that
// serializer exactly.
func (c *config) encodeForm(fields []decoder.Field, opts decoder.EncodeOptions) (string, error) {
	s, err := decoder.EncodeForm(fields, opts)
	return c.whatwgAt(s), err
}

func (c *config) encodeKeywords(words []string, opts decoder.EncodeOptions) (string, error) {
	s, err := decoder.EncodeKeywords(words, opts)
	return c.whatwgAt(s), err
}

func (c *config) whatwgAt(s string) string {
	if !c.WHATWG {
		return s
	}
	return strings.ReplaceAll(s, "@", "%40")
}

// splitForm splits text into fields on '&', each at its first '='.
func splitForm(s string) []decoder.Field {
	var out []decoder.Field
	for _, p := range strings.Split(s, "&") {
		name, value, _ := strings.Cut(p, "=")
		out = append(out, decoder.Field{Name: name, Value: value})
	}
	return out
}

// encodeURL writes a URL typed as text the way it goes on the wire: the
// host in ASCII (UTS #46 punycode, or with -legacy-idn the 2000-era forms),
// user information, path and fragment percent-encoded in the charset
// outside RFC 3986's pchar set (§ 3.3), and the query as a form.
func (c *config) encodeURL(u rawURL, k inputKind, opts decoder.EncodeOptions) (string, error) {
	cs := c.encodeCharset()
	var b strings.Builder
	esc := func(s, keep string) error {
		p, err := cs.Encode(s, c.NCR)
		if err != nil {
			return err
		}
		escapeBytes(&b, p, keep)
		return nil
	}
	if k == kindURL {
		b.WriteString(u.Scheme + ":")
	}
	if u.HasAuthority {
		b.WriteString("//")
		if u.HasUserinfo {
			name, pw, hasPW := strings.Cut(u.Userinfo, ":")
			if c.LegacyIDN {
				name = encodeLegacyLabels(name)
			}
			if err := esc(name, pcharNoColon); err != nil {
				return "", err
			}
			if hasPW {
				b.WriteByte(':')
				if err := esc(pw, pcharNoColon); err != nil {
					return "", err
				}
			}
			b.WriteByte('@')
		}
		host, err := c.asciiHost(u.Host)
		if err != nil {
			return "", err
		}
		b.WriteString(host)
		if u.HasPort {
			b.WriteString(":" + u.Port)
		}
	}
	special := idn.IsSpecialScheme(u.Scheme)
	if k == kindURL && !u.HasAuthority && !strings.HasPrefix(u.Path, "/") {
		if err := esc(u.Path, pchar+"/"); err != nil {
			return "", err
		}
	} else {
		path := u.Path
		if path == "" && special {
			path = "/"
		}
		for _, s := range segments(path, special) {
			b.WriteByte('/')
			if err := esc(s, pchar); err != nil {
				return "", err
			}
		}
	}
	if u.HasQuery {
		var q string
		var err error
		if strings.Contains(u.Query, "=") {
			q, err = c.encodeForm(splitForm(u.Query), opts)
		} else {
			q, err = c.encodeKeywords(strings.Fields(strings.ReplaceAll(u.Query, "+", " ")), opts)
		}
		if err != nil {
			return "", err
		}
		b.WriteString("?" + q)
	}
	if u.HasFragment {
		b.WriteByte('#')
		if err := esc(u.Fragment, pchar+"/?"); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// asciiHost is a host name for the wire.
func (c *config) asciiHost(host string) (string, error) {
	if c.LegacyIDN {
		return idn.EncodeLegacyHost(host), nil
	}
	if host == "" {
		return "", nil
	}
	h, err := idn.ParseHost(host)
	if err != nil {
		return "", err
	}
	return h.ASCII, nil
}

// legacyUser writes each label of a user part in its 2000-era form.
func encodeLegacyLabels(user string) string {
	labels := strings.Split(user, ".")
	for i, l := range labels {
		labels[i] = idn.EncodeLegacy(l)
	}
	return strings.Join(labels, ".")
}

// RFC 3986 § 3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@".
const (
	pcharNoColon = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;="
	pchar        = pcharNoColon + ":@"
)

// escapeBytes writes p with every byte outside keep as "%XY".
func escapeBytes(b *strings.Builder, p []byte, keep string) {
	const hex = "0123456789ABCDEF"
	for _, c := range p {
		if strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
}

// idnJSON is one host name or address, both ways.
type idnJSON struct {
	Line      int    `json:"line"`
	Input     string `json:"input"`
	Unicode   string `json:"host"`
	ASCII     string `json:"host_ascii"`
	Legacy    string `json:"legacy"`
	Operation string `json:"operation"` // "decode" or "encode"
}

// handleIDN shows a host name or a user@host address in Unicode or, with
// -encode, in ASCII: punycode (RFC 3492 via UTS #46), or with -legacy-idn
// the 2000-era label encodings, in the user part too.
func (c *config) handleIDN(in input, w *bufio.Writer) error {
	user, host, hasUser := "", in.text, false
	if at := strings.LastIndexByte(in.text, '@'); at >= 0 {
		user, host, hasUser = in.text[:at], in.text[at+1:], true
	}
	// Text to encode is read as the standard reads it; only text to
	// decode may hold legacy labels.
	h, err := idn.Options{Legacy: c.LegacyIDN && !c.Encode}.ParseHost(host)
	if err != nil {
		if c.JSON {
			writeJSON(w, errorJSON{Line: in.line, Input: in.text, Error: err.Error()})
		}
		return err
	}
	uni, ascii := h.Unicode, h.ASCII
	if hasUser {
		if c.LegacyIDN && !c.Encode {
			user, _, _ = decodeLegacyLabels(user)
		}
		uni, ascii = user+"@"+uni, user+"@"+ascii
	}
	legacy := idn.EncodeLegacyHost(uni)
	op, out := "decode", uni
	if c.Encode {
		op, out = "encode", ascii
		if c.LegacyIDN {
			out = legacy
		}
	}
	if c.JSON {
		writeJSON(w, idnJSON{Line: in.line, Input: in.text, Unicode: uni, ASCII: ascii, Legacy: legacy, Operation: op})
	} else {
		fmt.Fprintln(w, out)
	}
	return nil
}

// decodeLegacyLabels undoes encodeLegacyLabels label by label, for the user
// part of an address (draft-jseng-utf5-01 § 4.b). A label that only looks
// encoded is kept, with a warning. changed says whether any label was
// legacy-encoded.
func decodeLegacyLabels(user string) (out string, changed bool, warnings []string) {
	labels := strings.Split(user, ".")
	for i, l := range labels {
		d, err := idn.DecodeLegacy(l)
		if err != nil {
			warnings = append(warnings, "user: "+err.Error())
			continue
		}
		if d != l {
			labels[i], changed = d, true
		}
	}
	return strings.Join(labels, "."), changed, warnings
}
