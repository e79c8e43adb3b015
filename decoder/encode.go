package decoder

import (
	"strings"

	"github.com/cgigate/cgigate/decoder/charset"
)

// EncodeOptions says how to encode text for a query string or form body.
// The zero value encodes in UTF-8 and refuses nothing UTF-8 cannot hold.
type EncodeOptions struct {
	Charset string // target charset label; "" is UTF-8
	// NCR writes a character the charset cannot encode as a decimal numeric
	// character reference ("&#21360;"), as a browser does, instead of
	// failing with a *charset.UnencodableError.
	NCR bool
}

// EncodeForm encodes fields as application/x-www-form-urlencoded the
// classic way (HTML 2.0, RFC 1866 § 8.2.1): each name and value is turned
// into the charset's bytes and escaped apart, then joined by '=' and '&'.
// Field.Origin is ignored.
func EncodeForm(fields []Field, opts EncodeOptions) (string, error) {
	cs, err := opts.charset()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('&')
		}
		if err := escapeText(&b, cs, f.Name, opts.NCR); err != nil {
			return "", err
		}
		b.WriteByte('=')
		if err := escapeText(&b, cs, f.Value, opts.NCR); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// EncodeKeywords encodes ISINDEX search words (RFC 3875 § 4.4): each word is
// escaped as EncodeForm escapes a value, and the words are joined by '+',
// so a plus inside a word is "%2B" and a space inside one is "+" no
// differently from a word break: a word with a space in it is two words.
func EncodeKeywords(words []string, opts EncodeOptions) (string, error) {
	cs, err := opts.charset()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte('+')
		}
		if err := escapeText(&b, cs, w, opts.NCR); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

func (o EncodeOptions) charset() (*charset.Charset, error) {
	if o.Charset == "" {
		return charset.UTF8, nil
	}
	return charset.Lookup(o.Charset)
}

func escapeText(b *strings.Builder, cs *charset.Charset, s string, ncr bool) error {
	raw, err := cs.Encode(s, ncr)
	if err != nil {
		return err
	}
	Escape(b, raw)
	return nil
}

// Escape writes the octets of p to b the classic form way: ASCII letters,
// digits and "*-.@_" stand for themselves, a space is '+', and every other
// octet is '%' and two upper-case hex digits (HTML 2.0 § 8.2.1; the same set
// the WHATWG urlencoded serializer leaves alone, with '@' as Netscape and
// Mosaic left it).
func Escape(b *strings.Builder, p []byte) {
	const hex = "0123456789ABCDEF"
	for _, c := range p {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '*', c == '-', c == '.', c == '@', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
}
