// Package charset finds a character encoding by its label and decodes and
// encodes bytes with it the way the WHATWG Encoding Standard says a browser
// does, reporting every byte that was invalid instead of hiding it.
//
// The tables come from golang.org/x/text. Where x/text departs from the
// Encoding Standard in ways that lose or forge data (an ASCII byte swallowed
// after an invalid lead byte, GBK's four-byte sequences, the C1 bytes of
// windows-1252, SO and SI in ISO-2022-JP), a thin wrapper around the x/text
// encoding restores the standard's behaviour; each wrapper lives in its own
// file. x/text decoders never return errors, so this package finds the
// replaced bytes itself.
package charset
