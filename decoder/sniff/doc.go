// Package sniff guesses the charset of the short percent-decoded byte strings
// a form or an ISINDEX search sends (a search word is often 2 to 10 bytes),
// when the request names none: HTML § 4.10.21.7 lets a browser encode a form
// in the page's legacy encoding without saying so, and RFC 3986 § 2.1 leaves
// the meaning of percent-encoded octets to the application.
//
// Valid UTF-8 that is not pure ASCII is UTF-8 (Encoding Standard § 4.1
// makes UTF-8 the default) when it holds a three- or four-byte sequence and
// every such sequence is a character in everyday use. Two-byte sequences
// alone, rare characters and unassigned code points also arise from legacy
// text (GBK's D1 A7, "学", is valid UTF-8 for U+0467; windows-874's "เทพ"
// is U+0DFE, no character), so such UTF-8 competes with the legacy
// candidates, with a strong prior. Every candidate in which the bytes are valid
// (decoder/charset reports the errors) decodes them, and the decoded
// text is scored as the language that charset serves would write it: letter
// pair costs for alphabetic languages, character costs for Chinese,
// Japanese and Korean whose mass sits where the charsets' own structure puts
// the common characters (JIS X 0208 level 1 and kana, GB 2312 level 1, the
// KS X 1001 hangul block, Big5's frequent block), then an Accept-Language
// prior (RFC 9110 § 12.5.4) and a host TLD prior are added. Candidates that
// decode the bytes into the same text share their weight, so that a guess
// of windows-1252 for bytes that mean the same in windows-1250 counts alike.
// The guess is deterministic: ties go to the earlier candidate of a fixed
// order (shift_jis, euc-jp, iso-2022-jp, euc-kr, gbk, big5, windows-1252,
// windows-1251, ...), and the confidence is the winner's share of the
// weight of all the distinct decodings.
//
// The work per call is bounded and mostly shared: candidates that need a
// decoder decode once into a pooled scratch and drop out at their first
// error; candidates that decode the samples alike share each language's
// cost of the text; the likeliest candidates are evaluated first, and the
// others stop scoring once they fall pruneMargin bits below, which changes
// no guess (TestPruningChangesNoGuess). A call allocates nothing once a
// scratch is pooled.
//
// The language tables are static strings written by internal/gentables
// from the hunspell dictionaries, the Unicode Unihan database and IPAdic;
// each single-byte candidate's byte table (what it decodes every byte to,
// and that character's glyph and letter symbols) is static data written
// from decoder/charset by TestSingleByteTables (single_tables.go). Nothing
// is built at init or on first use, so a CGI process pays only for the
// scoring itself (deriving the byte tables at run time cost a fresh process
// about 0.3 ms).
package sniff

//go:generate go run ./internal/gentables
//go:generate go test -run ^TestSingleByteTables$ . -args -write-single-tables
