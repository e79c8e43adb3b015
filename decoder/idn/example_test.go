package idn_test

import (
	"errors"
	"fmt"

	"github.com/cgigate/cgigate/decoder/idn"
)

func ExampleParseHost() {
	for _, raw := range []string{"www.%79%61%68%6f%6f.com", "xn--mnchen-3ya.de", "0x7f.1"} {
		h, err := idn.ParseHost(raw)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %s %s / %s (%s)\n", raw, h.Kind, h.ASCII, h.Unicode, h.Steps)
	}
	// Output:
	// www.%79%61%68%6f%6f.com: domain www.yahoo.com / www.yahoo.com (percent-decoded)
	// xn--mnchen-3ya.de: domain xn--mnchen-3ya.de / münchen.de (punycode)
	// 0x7f.1: IPv4 127.0.0.1 / 127.0.0.1 (mapped)
}

func ExampleWithLegacy() {
	h, err := idn.ParseHost("M---5E5M72COA9E.jp", idn.WithLegacy())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Unicode, h.ASCII, h.Steps)
	// Output: 日本語.jp xn--wgv71a119e.jp legacy+punycode
}

func ExampleOptions_ParseHost() {
	opts := idn.Options{Legacy: true}
	h, err := opts.ParseHost("C--59--3uf.fr")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Unicode, h.ASCII)
	// Output: œuf.fr xn--uf-dsa.fr
}

func ExampleHost_String() {
	h, _ := idn.ParseHost("[2001:DB8:0:0::1]")
	fmt.Println(h)
	// Output: [2001:db8::1]
}

func ExampleSteps_String() {
	fmt.Println(idn.PercentDecoded | idn.Punycode)
	fmt.Println(idn.Steps(0))
	// Output:
	// percent-decoded+punycode
	// none
}

func ExampleKind_String() {
	fmt.Println(idn.Domain, idn.IPv4, idn.IPv6)
	// Output: domain IPv4 IPv6
}

func ExampleToASCII() {
	s, err := idn.ToASCII("Bücher.example")
	fmt.Println(s, err)
	// Output: xn--bcher-kva.example <nil>
}

func ExampleToUnicode() {
	s, err := idn.ToUnicode("xn--mnchen-3ya.de")
	fmt.Println(s, err)
	// Output: münchen.de <nil>
}

func ExampleEncodeLegacy() {
	for _, label := range []string{"日本語", "αβ", "œuf", "feliĉulo", "example"} {
		fmt.Println(idn.EncodeLegacy(label))
	}
	// Output:
	// M---5E5M72COA9E
	// J---B1JB2
	// C--59--3uf
	// feliC--48--9ulo
	// example
}

func ExampleDecodeLegacy() {
	for _, label := range []string{"M---5E5M72COA9E", "c--59--3uf", "xn--mnchen-3ya", "T---800"} {
		s, err := idn.DecodeLegacy(label)
		fmt.Println(s, err)
	}
	// Output:
	// 日本語 <nil>
	// œuf <nil>
	// xn--mnchen-3ya <nil>
	// T---800 label "T---800" is not valid UTF-5 at offset 0: U+D800 is a surrogate, not a Unicode scalar value
}

func ExampleEncodeLegacyHost() {
	fmt.Println(idn.EncodeLegacyHost("αβ@日本語.jp"))
	// Output: J---B1JB2@M---5E5M72COA9E.jp
}

func ExampleDecodeLegacyHost() {
	s, err := idn.DecodeLegacyHost("J---B1JB2@M---5E5M72COA9E.jp")
	fmt.Println(s, err)
	// Output: αβ@日本語.jp <nil>
}

func ExampleDefaultPort() {
	for _, scheme := range []string{"http", "wss", "gopher", "file"} {
		port, ok := idn.DefaultPort(scheme)
		fmt.Println(scheme, port, ok)
	}
	// Output:
	// http 80 true
	// wss 443 true
	// gopher 70 true
	// file 0 false
}

func ExampleIsSpecialScheme() {
	fmt.Println(idn.IsSpecialScheme("HTTPS"), idn.IsSpecialScheme("gopher"))
	// Output: true false
}

func ExampleIsForbiddenHostCodePoint() {
	fmt.Println(idn.IsForbiddenHostCodePoint('<'), idn.IsForbiddenHostCodePoint('%'))
	// Output: true false
}

func ExampleIsForbiddenDomainCodePoint() {
	fmt.Println(idn.IsForbiddenDomainCodePoint('%'), idn.IsForbiddenDomainCodePoint('-'))
	// Output: true false
}

func ExampleForbiddenCodePointError() {
	_, err := idn.ParseHost("exa%3Cmple.com")
	var fe *idn.ForbiddenCodePointError
	if errors.As(err, &fe) {
		fmt.Printf("%q at %d in %q\n", fe.Char, fe.Offset, fe.Host)
	}
	fmt.Println(err)
	// Output:
	// '<' at 3 in "exa<mple.com"
	// idn: ParseHost "exa%3Cmple.com": forbidden code point U+003C '<' at offset 3 in host "exa<mple.com"
}

func ExampleLegacyError() {
	_, err := idn.ParseHost("ab--cd.example", idn.WithLegacy())
	var le *idn.LegacyError
	if errors.As(err, &le) {
		fmt.Println(le.Label, le.Form)
	}
	// Output: ab--cd double-hyphened UTF-8
}

func ExampleError() {
	_, err := idn.ParseHost("[::1")
	var e *idn.Error
	if errors.As(err, &e) {
		fmt.Println(e.Op, e.Host, e.Err)
	}
	// Output: ParseHost [::1 IPv6 address is missing its closing ']'
}
