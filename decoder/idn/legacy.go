package idn

import (
	"strconv"
	"strings"
)

// Before IDNA settled on punycode (RFC 3490, 2003), the IETF IDN working
// group weighed ASCII-compatible encodings that wrote a label's code points
// with letters, digits and hyphens. Two of them survive in old logs, mail
// archives and test suites:
//
//   - Triple-hyphened UTF-5 (draft-jseng-utf5, 1999-2000): each code point in
//     hexadecimal, without leading zeros, its first nibble written with the
//     letters G-V (G=0 ... V=F) and the following nibbles with 0-9 A-F, so the
//     start of each character is visible. "---" after the first letter marks
//     the label as encoded: 日本語 (U+65E5 U+672C U+8A9E) is M---5E5M72COA9E.
//     It is used for labels holding a character above Latin Extended-B
//     (U+024F), where it is shorter than UTF-8 in hex.
//   - Double-hyphened UTF-8, for the other non-ASCII labels: each byte %XY of
//     the label's UTF-8 is written X--Y and ASCII stays as it is, so œuf
//     (C5 93 'u' 'f') is C--59--3uf. A "--" or "---" of the label itself is
//     written "----2" or "----3" (longer runs as several of these).
//
// The UTF-5 digits are those of draft-jseng-utf5-01 and its §3 example. The
// "---" mark, the X--Y byte form and the "----2"/"----3" escapes follow the
// description cgigate was specified from; no draft text fixing them was found
// to cite, so the handling of hyphen runs longer than three, of case, and of
// ASCII labels that merely look encoded is this package's own choice, made
// so that encoding is reversible and decoding unambiguous.
//
// The two shapes cannot be confused with each other: a UTF-5 label has
// exactly three hyphens, right after its first letter, and none elsewhere,
// while a double-hyphened label always has a "--" between two hexadecimal
// digits or a "----" escape. A label that has neither shape is plain and
// decodes as itself. A plain ASCII label that happens to have one of the
// shapes (say "ab--cd") is written with its hyphens escaped ("ab----2cd"),
// so that [DecodeLegacy] undoes [EncodeLegacy] for every label.

// legacyForm names the encoding a label is written in.
type legacyForm uint8

const (
	formPlain  legacyForm = iota // not encoded
	formUTF5                     // triple-hyphened UTF-5
	formDHUTF8                   // double-hyphened UTF-8
)

func (f legacyForm) String() string {
	switch f {
	case formUTF5:
		return "UTF-5"
	case formDHUTF8:
		return "double-hyphened UTF-8"
	}
	return "plain"
}

// latinExtendedBEnd is the last code point of the Latin Extended-B block;
// labels with a code point past it are written in UTF-5.
const latinExtendedBEnd = 0x024F

// formFor chooses the encoding of a label for EncodeLegacy.
func formFor(label string) legacyForm {
	ascii := true
	for _, r := range label { // an invalid byte ranges as U+FFFD
		if r > latinExtendedBEnd {
			return formUTF5
		}
		if r >= 0x80 {
			ascii = false
		}
	}
	if !ascii || formOf(label) != formPlain {
		return formDHUTF8
	}
	return formPlain
}

// formOf tells which decoding a label's shape calls for.
func formOf(label string) legacyForm {
	switch {
	case hasUTF5Shape(label):
		return formUTF5
	case hasDHShape(label):
		return formDHUTF8
	}
	return formPlain
}

// EncodeLegacy writes one label in the 2000-era encoding its content calls
// for: triple-hyphened UTF-5 when it holds a code point above U+024F
// ("日本語" is "M---5E5M72COA9E", "αβ" is "J---B1JB2"), double-hyphened UTF-8
// for other non-ASCII labels ("œuf" is "C--59--3uf"), and the label itself
// when it is ASCII, unless it would be misread as encoded, in which case its
// hyphen runs are escaped. Each ill-formed UTF-8 byte is taken as U+FFFD, as
// ranging over a Go string does. The label must not contain ".".
func EncodeLegacy(label string) string {
	return encodeLabel(label, formFor(label))
}

// DecodeLegacy undoes [EncodeLegacy]: it picks the decoding from the label's
// shape and returns a label that has neither shape as it is. ASCII letters
// are matched without regard to case, as DNS does (RFC 4343).
//
// Only the canonical encoding of a label is accepted, the one EncodeLegacy
// writes, so that no two spellings decode to the same name. A label that has
// one of the shapes but is not such an encoding is returned unchanged,
// together with a *LegacyError.
func DecodeLegacy(label string) (string, error) {
	form := formOf(label)
	if form == formPlain {
		return label, nil
	}
	s, err := decodeLabel(label, form)
	if err != nil {
		return label, err
	}
	if enc := EncodeLegacy(s); !strings.EqualFold(enc, label) {
		return label, &LegacyError{Label: label, Form: form.String(), Offset: -1,
			Reason: "not the canonical encoding of " + strconv.Quote(s) + ", which is " + strconv.Quote(enc)}
	}
	return s, nil
}

// encodeLabel writes label in form.
func encodeLabel(label string, form legacyForm) string {
	switch form {
	case formUTF5:
		return encodeUTF5(label)
	case formDHUTF8:
		return encodeDH(label)
	}
	return label
}

// decodeLabel reads label as written in form.
func decodeLabel(label string, form legacyForm) (string, error) {
	switch form {
	case formUTF5:
		return decodeUTF5(label)
	case formDHUTF8:
		return decodeDH(label)
	}
	return label, nil
}
