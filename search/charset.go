package search

import (
	"bytes"
	"strings"
	"unicode/utf8"

	xunicode "golang.org/x/text/encoding/unicode"

	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/decoder/sniff"
)

// Where a document's charset came from, in the order they are tried.
const (
	fromBOM     = "byte order mark"
	fromMeta    = "meta"
	fromXML     = "XML declaration"
	fromUTF8    = "valid UTF-8"
	fromSetting = "CGIGATE_INDEX_CHARSET"
	fromSniff   = "sniffed"
)

// prescanBytes is how far into an HTML document its <meta> is looked for:
// the Encoding sniffing algorithm's 1024 bytes (HTML § 13.2.3.2).
const prescanBytes = 1024

// sniffBytes is how much of a document the sniffer reads: it is right on
// long texts well before that (decoder/sniff), and its cost is bounded.
const sniffBytes = 64 << 10

// decodeDoc turns a document's bytes into text, read in its charset: a
// byte order mark; for HTML, a <meta charset> or http-equiv Content-Type
// in its first 1024 bytes; an XML declaration; UTF-8 when the bytes are
// valid UTF-8; for plain text, textCharset (CGIGATE_INDEX_CHARSET) when
// set; and otherwise the project's sniffer. A label that names no charset
// is passed over for the next source. Bytes invalid in the charset become
// U+FFFD: a document is read whatever its bytes. It says which charset
// and where it came from.
func decodeDoc(b []byte, html bool, textCharset string) (text, name, from string) {
	switch {
	case bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")):
		return strings.ToValidUTF8(string(b[3:]), "\uFFFD"), "utf-8", fromBOM
	case bytes.HasPrefix(b, []byte("\xFE\xFF")), bytes.HasPrefix(b, []byte("\xFF\xFE")):
		order, name := xunicode.BigEndian, "utf-16be"
		if b[0] == 0xFF {
			order, name = xunicode.LittleEndian, "utf-16le"
		}
		s, err := xunicode.UTF16(order, xunicode.ExpectBOM).NewDecoder().Bytes(b)
		if err != nil { // not expected: the decoder replaces what it cannot read
			s = nil
		}
		return string(s), name, fromBOM
	}
	decode := func(label, from string) (string, string, string, bool) {
		c, err := charset.Lookup(label)
		if err != nil {
			return "", "", "", false
		}
		s, _ := c.Decode(b)
		return strings.ToValidUTF8(s, "\uFFFD"), c.Name(), from, true
	}
	if html {
		if label := prescan(b[:min(len(b), prescanBytes)]); label != "" {
			if t, n, f, ok := decode(label, fromMeta); ok {
				return t, n, f
			}
		}
	}
	if label := xmlEncoding(b[:min(len(b), prescanBytes)]); label != "" {
		if t, n, f, ok := decode(label, fromXML); ok {
			return t, n, f
		}
	}
	if utf8.Valid(b) {
		return string(b), "utf-8", fromUTF8
	}
	if !html && textCharset != "" {
		if t, n, f, ok := decode(textCharset, fromSetting); ok {
			return t, n, f
		}
	}
	g, _ := sniff.Detector{}.Sniff([][]byte{b[:min(len(b), sniffBytes)]}, sniff.Evidence{})
	if g.Charset != "" {
		if t, n, f, ok := decode(g.Charset, fromSniff); ok {
			return t, n, f
		}
	}
	// No legacy charset reads the bytes at all: Windows-1252 reads every
	// byte, which is what a browser would show.
	t, n, _, _ := decode("windows-1252", fromSniff)
	return t, n, fromSniff
}

// xmlEncoding is the encoding an XML declaration names (XML 1.0 § 4.3.3)
// at the very start of b, as XML requires, or "": what the pattern
// ^<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["'] finds,
// by a scan that needs no regexp compiled in a search process
// (TestXMLEncodingIsWhatThePatternFinds). None of the pattern's parts
// crosses a '>', so neither does the scan.
func xmlEncoding(b []byte) string {
	rest, ok := bytes.CutPrefix(b, []byte("<?xml"))
	if !ok || len(rest) == 0 || !isPrescanSpace(rest[0]) {
		return ""
	}
	if end := bytes.IndexByte(rest, '>'); end >= 0 {
		rest = rest[:end]
	}
	for i := 1; ; i++ { // rest[0] is the space: "encoding" starts after it
		n := bytes.Index(rest[i:], []byte("encoding"))
		if n < 0 {
			return ""
		}
		i += n
		if isWordByte(rest[i-1]) { // \b: "xencoding" is not the attribute
			continue
		}
		if label := encodingValue(rest[i+len("encoding"):]); label != "" {
			return label
		}
	}
}

// encodingValue is the label in b that follows the word encoding:
// \s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["'], or "".
func encodingValue(b []byte) string {
	b, ok := bytes.CutPrefix(skipSpace(b), []byte("="))
	if !ok {
		return ""
	}
	b = skipSpace(b)
	if len(b) < 3 || b[0] != '"' && b[0] != '\'' || !isASCIILetter(b[1]) {
		return ""
	}
	n := 2
	for n < len(b) && (isASCIILetter(b[n]) || '0' <= b[n] && b[n] <= '9' || b[n] == '.' || b[n] == '_' || b[n] == '-') {
		n++
	}
	if n == len(b) || b[n] != '"' && b[n] != '\'' {
		return ""
	}
	return string(b[1:n])
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && isPrescanSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// isWordByte is \w of Go's regexp: [0-9A-Za-z_].
func isWordByte(c byte) bool {
	return isASCIILetter(c) || '0' <= c && c <= '9' || c == '_'
}

// prescan finds the charset label an HTML document declares in a <meta>
// element, following the prescan of HTML § 13.2.3.2 ("prescan a byte
// stream to determine its encoding") on the bytes it is given: comments
// and other tags are skipped whole, attribute values are read raw (the
// prescan decodes no character references), and the first <meta> with a
// charset attribute, or http-equiv="content-type" and a content holding
// charset=, gives its label.
func prescan(b []byte) string {
	for i := 0; i < len(b); {
		rest := b[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			end := bytes.Index(rest[2:], []byte("-->")) // "<!-->" ends the comment
			if end < 0 {
				return ""
			}
			i += 2 + end + 3
		case len(rest) > 5 && asciiLowerEqual(rest[:5], "<meta") && (isPrescanSpace(rest[5]) || rest[5] == '/'):
			i += 5
			var equiv, content, label string
			for {
				name, value, n := getAttribute(b[i:])
				i += n
				if name == "" {
					break
				}
				switch name {
				case "http-equiv":
					equiv = value
				case "content":
					content = value
				case "charset":
					if label == "" {
						label = value
					}
				}
			}
			if label == "" && strings.EqualFold(equiv, "content-type") {
				label = charsetFromContent(content)
			}
			if label != "" {
				return label
			}
		case len(rest) > 2 && rest[0] == '<' && (isASCIILetter(rest[1]) || rest[1] == '/' && isASCIILetter(rest[2])):
			j := 1
			for j < len(rest) && !isPrescanSpace(rest[j]) && rest[j] != '>' {
				j++
			}
			i += j
			for {
				name, _, n := getAttribute(b[i:])
				i += n
				if name == "" {
					break
				}
			}
		case bytes.HasPrefix(rest, []byte("<!")), bytes.HasPrefix(rest, []byte("</")), bytes.HasPrefix(rest, []byte("<?")):
			end := bytes.IndexByte(rest, '>')
			if end < 0 {
				return ""
			}
			i += end + 1
		default:
			i++
		}
	}
	return ""
}

// getAttribute reads one attribute at the start of b as the prescan's
// "get an attribute" does: its name and value in lower case, and how many
// bytes it took; no name at a '>' or the end (the '>' consumed).
func getAttribute(b []byte) (name, value string, n int) {
	for n < len(b) && (isPrescanSpace(b[n]) || b[n] == '/') {
		n++
	}
	if n == len(b) || b[n] == '>' {
		return "", "", min(n+1, len(b))
	}
	start := n
	for n < len(b) && (n == start || b[n] != '=') && !isPrescanSpace(b[n]) && b[n] != '/' && b[n] != '>' {
		n++
	}
	name = strings.ToLower(string(b[start:n]))
	for n < len(b) && isPrescanSpace(b[n]) {
		n++
	}
	if n == len(b) || b[n] != '=' {
		return name, "", n
	}
	n++
	for n < len(b) && isPrescanSpace(b[n]) {
		n++
	}
	if n < len(b) && (b[n] == '"' || b[n] == '\'') {
		q := b[n]
		end := bytes.IndexByte(b[n+1:], q)
		if end < 0 {
			return name, strings.ToLower(string(b[n+1:])), len(b)
		}
		return name, strings.ToLower(string(b[n+1 : n+1+end])), n + 1 + end + 1
	}
	start = n
	for n < len(b) && !isPrescanSpace(b[n]) && b[n] != '>' {
		n++
	}
	return name, strings.ToLower(string(b[start:n])), n
}

// charsetFromContent is HTML § 2.5.7's "extracting a character encoding
// from a meta element": the value after the first "charset", an '=' and
// spaces, quoted or not; "" when there is none.
func charsetFromContent(s string) string {
	for {
		i := strings.Index(strings.ToLower(s), "charset")
		if i < 0 {
			return ""
		}
		s = strings.TrimLeft(s[i+len("charset"):], "\t\n\f\r ")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = strings.TrimLeft(s[1:], "\t\n\f\r ")
		if s != "" && (s[0] == '"' || s[0] == '\'') {
			end := strings.IndexByte(s[1:], s[0])
			if end < 0 {
				return ""
			}
			return s[1 : 1+end]
		}
		end := strings.IndexAny(s, "\t\n\f\r ;")
		if end < 0 {
			return s
		}
		return s[:end]
	}
}

// isPrescanSpace is HTML's ASCII whitespace, which is also \s of Go's
// regexp: [\t\n\f\r ].
func isPrescanSpace(c byte) bool {
	return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func asciiLowerEqual(b []byte, lower string) bool {
	return strings.EqualFold(string(b), lower)
}
