// Package charset finds a character encoding by its label and decodes and
// encodes bytes with it the way the WHATWG Encoding Standard
// (https://encoding.spec.whatwg.org/) says a browser does, reporting every
// byte that was invalid instead of hiding it.
//
// The tables come from golang.org/x/text. Where x/text departs from the
// Encoding Standard in ways that lose or forge data, a thin wrapper around
// the x/text encoding restores the standard's behaviour; each wrapper lives
// in its own file and is applied by name in fix (lookup.go):
//
//   - gb18030.go, gbk.go: four-byte sequences are checked (the second and
//     fourth byte must be digits, else the bytes after the first go back to
//     the input: "81 3C" is U+FFFD '<', not U+3E87); GBK labels decode with
//     the gb18030 decoder (§ 10.1.1); the user-defined areas and 175 other
//     two-byte sequences x/text lacks decode as index-gb18030.txt says;
//     81 35 F4 37 is U+E7C7; the encoder writes those back, and refuses the
//     19 Private Use Area code points no sequence decodes to (U+E5E5, ...).
//   - shiftjis.go: lead bytes F0-F9 decode to the Private Use Area; the
//     encoder writes the standard's pointer for the NEC/IBM duplicates.
//   - eucjp.go: after 8E/8F, and after an invalid pair, the standard's error
//     lengths and its "restore byte" of an ASCII byte.
//   - iso2022jp.go: the standard's state machine (SO and SI are errors,
//     ESC ( J maps 5C and 7E to U+00A5 and U+203E, an escape right after an
//     escape is an error, errors never swallow what follows) over x/text's
//     JIS X 0208 table; Encode refuses SO, SI and ESC.
//   - windows1252.go: 81 8D 8F 90 9D are the C1 controls, both ways (the
//     "latin1", "ascii" and "iso-8859-1" labels share it).
//   - big5.go: the encoder writes the standard's pointer for 27 duplicates.
//
// x/text decoders never return errors, so Decode finds the replaced bytes
// itself: in bulk when the output has no U+FFFD, else again over the 1 KB
// chunks that have one, character by character, giving back the ASCII
// trail byte that x/text's Shift_JIS, Big5 and EUC-KR decoders swallow
// after an unmapped pair ("restore byte to ioQueue").
//
// Lookup's labels are those of x/text's htmlindex and ianaindex, in a table
// internal/genlabels generates from them (lookup_labels.go): the package
// links neither (their indexes and x/text/language cost every CGI process
// start-up ~0.1 ms and 75 kB), and nothing of it runs at init.
//
// Tests compare Decode with a reference decoder written from the standard's
// algorithms over its index files (testdata/whatwg-encoding at the project root) on
// every one- and two-byte sequence and structured three- and four-byte
// ones, and Encode with a reference encoder on every BMP code point.
//
// Known, deliberate departures: the "replacement" encoding's labels are
// refused and UTF-16 labels give UTF-8 (Lookup); U+00A5 and U+203E are not
// encoded as 5C and 7E in Shift_JIS, EUC-JP or ISO-2022-JP (they would come
// back as '\' and '~'); x/text's EUC-JP encoder writes JIS X 0212, its
// Big5 encoder the HKSCS rows below A1, and its ISO-2022-JP encoder
// half-width katakana after ESC ( I (the standard's encoder writes the
// full-width forms), all of which the standard's decoders read back: kept,
// as they lose nothing. Shift_JIS's user-defined area (U+E000-U+E757)
// decodes but is not encoded, as in the standard.
package charset
