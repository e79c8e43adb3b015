package search

import (
	"bytes"
	"html"
	"io"
	"strconv"
	"strings"
	"unicode"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlText extracts the title and the text of an HTML document with the
// x/net/html tokenizer, leaving out script, style and template content. A
// start tag that ends in "/" opens its element all the same, as HTML
// § 13.2.6 says for every element that is not void: <script/> is followed
// by script.
func htmlText(b []byte) (title, text string, err error) {
	z := newTextTokenizer(bytes.NewReader(b))
	var sb, tb strings.Builder
	skip, inTitle := 0, false
	for {
		tt, tag := z.Next()
		switch tt {
		case xhtml.ErrorToken:
			if z.Err() == io.EOF {
				return strings.Join(strings.Fields(tb.String()), " "), sb.String(), nil
			}
			return "", "", z.Err()
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			switch tag {
			case atom.Script, atom.Style, atom.Template, atom.Noscript:
				skip++
			case atom.Title:
				inTitle = true
			}
			sb.WriteByte(' ')
		case xhtml.EndTagToken:
			switch tag {
			case atom.Script, atom.Style, atom.Template, atom.Noscript:
				if skip > 0 {
					skip--
				}
			case atom.Title:
				inTitle = false
			}
			sb.WriteByte(' ')
		case xhtml.TextToken:
			t := z.Text()
			switch {
			case inTitle:
				tb.WriteString(t)
			case skip == 0:
				sb.WriteString(t)
			}
		}
	}
}

// textTokenizer is x/net/html's tokenizer with a Text that decodes as the
// tokenizer's own does, without linking its entity table (see tokenText).
// It follows the text state each start tag puts the tokenizer in.
type textTokenizer struct {
	*xhtml.Tokenizer
	state, next textState // of the current text token, and of the next
}

func newTextTokenizer(r io.Reader) *textTokenizer {
	return &textTokenizer{Tokenizer: xhtml.NewTokenizer(r)}
}

// Next scans the next token, and gives a tag token's element (0 for an
// element atom does not know); the tag's name is consumed.
func (z *textTokenizer) Next() (xhtml.TokenType, atom.Atom) {
	tt := z.Tokenizer.Next()
	z.state, z.next = z.next, data
	var tag atom.Atom
	switch tt {
	case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
		name, _ := z.TagName()
		tag = atom.Lookup(name)
		z.next = textStateAfter(tag)
	case xhtml.EndTagToken:
		name, _ := z.TagName()
		tag = atom.Lookup(name)
	}
	return tt, tag
}

// Text is what (*xhtml.Tokenizer).Text returns for the current text token.
func (z *textTokenizer) Text() string { return tokenText(z.Raw(), z.state) }

// textState is how the tokenizer reads the text after a start tag, up to
// the element's end tag, as one text token: the tokenizer states of
// HTML § 13.2.5 that x/net/html enters from a tag's name alone.
type textState int

const (
	data    textState = iota // character references decoded
	rcdata                   // title, textarea: references decoded, NUL replaced
	rawText                  // script, style, ...: NUL replaced, nothing decoded
)

func textStateAfter(a atom.Atom) textState {
	switch a {
	case atom.Title, atom.Textarea:
		return rcdata
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext, atom.Script, atom.Style, atom.Xmp:
		return rawText
	}
	return data
}

// tokenText is what (*xhtml.Tokenizer).Text returns for a text token whose
// source is src, read in state st (textTokenizer.Text): line breaks normalized to LF (HTML
// § 13.2.3.5), NUL replaced by U+FFFD outside data, character references
// decoded outside raw text.
//
// The references are decoded by the standard library's html package
// (unescapeText), which builds its table of 2,231 entities on first use.
// Text would link x/net/html's copy, a map that every CGI process would
// build at package init, whether it searches or not: 113 kB and about 5%
// of the process's start. TestTokenTextIsTokenizerText holds the two to
// the same output.
func tokenText(src []byte, st textState) string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if st != data {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	if st == rawText {
		return s
	}
	return unescapeText(s)
}

// unescapeText decodes the character references of s as HTML § 13.2.5.72
// to 13.2.5.80 do outside attributes. html.UnescapeString does, but for
// three forms of numeric reference, which it is handed mended:
//   - a decimal reference of one digit and no semicolon, &#9 in "(&#9)",
//     it leaves as it is (golang/go#66058): a leading zero, &#09, gives
//     it the two digits it wants;
//   - a hexadecimal one with no digits, &#x;, it turns into U+FFFD where
//     the standard keeps the text (§ 13.2.5.75, absence of digits): its
//     ampersand is escaped;
//   - one whose value passes 32 bits, &#x100000100;, it reads modulo 2^32
//     (U+0100) where the standard gives U+FFFD for any value above
//     U+10FFFF (§ 13.2.5.80): its digits are replaced by 110000's.
func unescapeText(s string) string {
	if !strings.Contains(s, "&#") {
		return html.UnescapeString(s)
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for {
		i := strings.Index(s, "&#")
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+2:]
		ref, base := "&#", 10
		if len(s) > 0 && (s[0] == 'x' || s[0] == 'X') {
			ref, base, s = "&#"+s[:1], 16, s[1:]
		}
		n, value := numericReference(s, base)
		semicolon := n < len(s) && s[n] == ';'
		switch {
		case base == 16 && n == 0 && semicolon:
			b.WriteString("&amp;" + ref[1:])
		case base == 10 && n == 1 && !semicolon:
			b.WriteString(ref + "0")
		case value > unicode.MaxRune:
			b.WriteString(ref + strconv.FormatInt(unicode.MaxRune+1, base))
			s = s[n:]
		default:
			b.WriteString(ref)
		}
	}
	b.WriteString(s)
	return html.UnescapeString(b.String())
}

// numericReference reads the digits in base (10 or 16) at the start of s:
// how many there are, and their value, which stops growing once it is past
// unicode.MaxRune.
func numericReference(s string, base int) (n int, value int64) {
	for ; n < len(s); n++ {
		d := int64(unhex(s[n]))
		if d >= int64(base) {
			break
		}
		if value <= unicode.MaxRune {
			value = value*int64(base) + d
		}
	}
	return n, value
}

// unhex is the value of hexadecimal digit c, or 16 when c is none.
func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 16
}
