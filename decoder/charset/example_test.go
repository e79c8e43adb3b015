package charset_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/transform"

	"github.com/cgigate/cgigate/decoder/charset"
)

func ExampleLookup() {
	for _, label := range []string{"Shift_JIS", " x-sjis ", "latin1", "utf-16le", "iso-2022-kr", "utf-7"} {
		c, err := charset.Lookup(label)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q -> %s\n", label, c.Name())
	}
	// Output:
	// "Shift_JIS" -> shift_jis
	// " x-sjis " -> shift_jis
	// "latin1" -> windows-1252
	// "utf-16le" -> utf-8
	// charset: label "iso-2022-kr" refused: the WHATWG replacement encoding would turn the whole input into U+FFFD
	// charset: unknown label "utf-7"
}

func ExampleCharset_Decode() {
	sjis := charset.MustLookup("shift_jis")
	// An invalid lead byte before a quote: the quote survives, and the
	// error is reported where it is.
	text, bad := sjis.Decode([]byte("\x88\xF3\x8D\xFC\x81\"><b>"))
	fmt.Printf("%q %+v\n", text, bad)

	// GB18030's four-byte sequences need digits: '<' is not swallowed.
	text, bad = charset.MustLookup("gb18030").Decode([]byte("\x81<\x810script>"))
	fmt.Printf("%q %+v\n", text, bad)
	// Output:
	// "印刷�\"><b>" [{Offset:4 Len:1}]
	// "�<�0script>" [{Offset:0 Len:1} {Offset:2 Len:1}]
}

func ExampleCharset_DecodeStrict() {
	euckr := charset.MustLookup("euc-kr")
	s, err := euckr.DecodeStrict([]byte{0xC7, 0xD1, 0xB1, 0xDB})
	fmt.Println(s, err)

	_, err = euckr.DecodeStrict([]byte{0xC7, 0xD1, 0xFF})
	var inv *charset.InvalidError
	if errors.As(err, &inv) {
		fmt.Println(inv.Offset, err)
	}
	// Output:
	// 한글 <nil>
	// 2 charset: bytes FF at offset 2 are invalid in euc-kr
}

func ExampleCharset_Encode() {
	sjis := charset.MustLookup("shift_jis")
	b, err := sjis.Encode("印刷 する", false)
	fmt.Printf("% X %v\n", b, err)

	// A character Shift_JIS lacks: an error naming it, or with ncr the
	// decimal reference a browser would send.
	_, err = sjis.Encode("price: €5", false)
	fmt.Println(err)
	b, _ = sjis.Encode("price: €5", true)
	fmt.Printf("%s\n", b)
	// Output:
	// 88 F3 8D FC 20 82 B7 82 E9 <nil>
	// charset: U+20AC at offset 7 cannot be encoded in shift_jis
	// price: &#8364;5
}

func ExampleMustLookup() {
	fmt.Println(charset.MustLookup("cp1251").Name(), charset.MustLookup("x-gbk").Name())
	// Output: windows-1251 gbk
}

func ExampleCharset_Valid() {
	eucjp := charset.MustLookup("euc-jp")
	fmt.Println(eucjp.Valid([]byte{0xC6, 0xFC, 0xCB, 0xDC}), eucjp.Valid([]byte{0x8E, 0x41}))
	// Output: true false
}

func ExampleCharset_Encoding() {
	// The fixed x/text encoding streams: ISO-2022-JP's Roman set gives ¥
	// for 5C, and the escapes never leak into the text.
	r := transform.NewReader(strings.NewReader("\x1B(J\\100\x1B(B"), charset.MustLookup("iso-2022-jp").Encoding().NewDecoder())
	b, _ := io.ReadAll(r)
	fmt.Printf("%s\n", b)
	// Output: ¥100
}

func ExampleCharset_DecodeString() {
	s, bad := charset.MustLookup("shift_jis").DecodeString("\x88\xf3\x8d\xfc" + strings.Repeat("\xff", 1000))
	fmt.Println(len([]rune(s)), bad.N, bad.Bytes, bad.First)
	// Output: 1002 1000 1000 [{4 1} {5 1} {6 1}]
}
