package charset

import (
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

//go:generate go run ./internal/genlabels

// Charset is an encoding found by label, with the WHATWG fixes applied.
// It is safe for concurrent use.
type Charset struct {
	name string
	enc  encoding.Encoding
	// restoreASCII marks the multibyte decoders whose WHATWG algorithm gives
	// back an ASCII trail byte after an invalid pair (Encoding Standard
	// §§ 10.1.1, 11.1.1, 12.1.1, 13.1.1, 14.1.1: "If byte is an ASCII byte,
	// restore byte to ioQueue").
	restoreASCII bool
	utf8         bool
}

// Name is the encoding's WHATWG name in lower case: "euc-jp", "shift_jis".
func (c *Charset) Name() string { return c.name }

// Encoding is the x/text encoding behind c, with the WHATWG fixes applied,
// for streaming (transform.NewReader). Two fixes live in Decode and Encode
// only: giving back the ASCII byte x/text's Shift_JIS, Big5 and EUC-KR
// decoders swallow after an unmapped pair, and refusing what the standard's
// encoders refuse (ISO-2022-JP's SO, SI and ESC; invalid UTF-8).
func (c *Charset) Encoding() encoding.Encoding {
	if c.enc == nil {
		return unicode.UTF8
	}
	return c.enc
}

// UTF8 is the charset a form falls back to when nothing names another. Its
// nil enc stands for unicode.UTF8 (Encoding): naming that variable of
// another package here would make the package copy it at init.
var UTF8 = &Charset{name: "utf-8", utf8: true}

// fix wraps the x/text encodings that depart from the Encoding Standard.
// Each wrapper lives in its own file. A switch, not a map the files fill at
// init: nothing of the package runs at process start-up.
func fix(name string, enc encoding.Encoding) encoding.Encoding {
	switch name {
	case "big5":
		return fixBig5(enc)
	case "euc-jp":
		return fixEUCJP(enc)
	case "gb18030":
		return fixGB18030(enc)
	case "gbk":
		return fixGBK(enc)
	case "iso-2022-jp":
		return fixISO2022JP(enc)
	case "shift_jis":
		return fixShiftJIS(enc)
	case "windows-1252":
		return fixWindows1252(enc)
	}
	return enc
}

// restoresASCII reports the charsets whose decoder gives back an ASCII
// trail byte after an invalid pair (Charset.restoreASCII).
func restoresASCII(name string) bool {
	return name == "shift_jis" || name == "euc-kr" || name == "big5"
}

// asciiWhitespace is the set the Encoding Standard's "get an encoding" (§ 4.2)
// strips; x/text's htmlindex trimmed Unicode white space as well, which would
// accept labels a browser refuses.
const asciiWhitespace = "\t\n\f\r "

// labelEntry is a label Lookup accepts (lower-cased), the name of its
// encoding and the encoding (lookup_labels.go).
type labelEntry struct {
	label, name string
	enc         encID
}

// findLabel finds a lower-cased label in labels.
func findLabel(label string) (labelEntry, bool) {
	if i := labelIndex(label); i >= 0 {
		return labels[i], true
	}
	return labelEntry{}, false
}

// encID stands for one of x/text's encodings (encID.encoding).
type encID uint8

// Lookup finds the encoding a label names, following the Encoding Standard's
// "get an encoding" (§ 4.2) and then IANA's registry. Labels of UTF-16 give
// UTF-8, as "get an output encoding" (§ 4.3) does for forms and URLs; the
// "replacement" encoding, which turns any input into a single U+FFFD, is
// refused rather than silently losing the data, and so are the encodings
// IANA names in which ASCII bytes are other characters (EBCDIC: ibm037,
// ibm1047, ibm01140), which the Encoding Standard does not know.
//
// The labels are those of x/text's htmlindex (the Encoding Standard's) and
// ianaindex (IANA's), with the names those packages give, in a table
// generated from them (lookup_labels.go): linking the packages themselves
// would cost every process start-up the indexes they build at init.
// Matching ignores case as they do (strings.ToLower).
func Lookup(label string) (*Charset, error) {
	trimmed := strings.Trim(label, asciiWhitespace)
	if trimmed == "" || strings.TrimSpace(trimmed) != trimmed {
		return nil, &UnknownError{Label: label}
	}
	e, ok := findLabel(strings.ToLower(trimmed))
	if !ok {
		return nil, &UnknownError{Label: label}
	}
	return newCharset(label, e.name, e.enc.encoding(), e.enc.asciiCompatible())
}

// newCharset is the Charset Lookup gives for label, whose encoding is enc,
// named name; asciiCompatible is encID.asciiCompatible. UTF-16 and the
// replacement encoding fail that test too, but have their own answers
// first, the Encoding Standard's.
func newCharset(label, name string, enc encoding.Encoding, asciiCompatible bool) (*Charset, error) {
	switch name {
	case "replacement":
		return nil, &UnknownError{Label: label, Reason: "the WHATWG replacement encoding would turn the whole input into U+FFFD"}
	case "utf-8", "utf-16", "utf-16be", "utf-16le":
		// "utf-16" is IANA's UTF-16 with a byte order mark (csUTF16),
		// which the Encoding Standard does not know: as its UTF-16 labels.
		return UTF8, nil
	}
	if !asciiCompatible {
		// The gateway splits a form on its raw ASCII bytes and then
		// decodes: that is sound only if ASCII bytes stay themselves.
		return nil, &UnknownError{Label: label, Reason: name + " is not ASCII-compatible: the bytes of ASCII text stand for other characters in it"}
	}
	return &Charset{name: name, enc: fix(name, enc), restoreASCII: restoresASCII(name)}, nil
}

// MustLookup is Lookup for labels known at compile time; it panics on error.
func MustLookup(label string) *Charset {
	c, err := Lookup(label)
	if err != nil {
		panic(err)
	}
	return c
}
