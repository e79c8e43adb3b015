// Package idn turns the host part of a URL into the forms a person and a
// resolver need: the ASCII form that goes on the wire (punycode A-labels,
// RFC 5890 §2.3.2.1) and the Unicode form to show (U-labels).
//
// It follows the WHATWG URL Standard's host parser
// (https://url.spec.whatwg.org/#host-parsing): percent-decode the host,
// UTF-8 decode it without BOM handling, run "domain to ASCII" (UTS #46
// ToASCII with the flags the URL Standard sets, via golang.org/x/net/idna),
// reject forbidden domain code points, and hand hosts that end in a number to
// the IPv4 parser. Bracketed hosts go to the IPv6 parser.
//
// Beside the standard it reads the two label encodings that the 2000 IETF IDN
// drafts proposed and that still appear in old logs and mail: UTF-5 written
// "triple-hyphened" (draft-jseng-utf5) and "double-hyphened" UTF-8. They are
// decoded only when asked (see [WithLegacy]) since a plain ASCII label can
// look like one.
//
// The package is pure: it reads no process state and keeps no globals that
// callers can change.
package idn
