package decoder_test

import (
	"fmt"
	"strings"

	"github.com/cgigate/cgigate/decoder"
)

func ExampleClassify() {
	fmt.Println(decoder.Classify("foo+bar%2Bbaz"))
	fmt.Println(decoder.Classify("name=value&x=1"))
	fmt.Println(decoder.Classify(""))
	// Output:
	// isindex
	// form
	// empty
}

func ExampleDecoder_DecodeQuery() {
	d := decoder.New(decoder.Options{})
	res, err := d.DecodeQuery("[EUC-JP]:%B0%F5%BA%FE+%A4%B9%A4%EB", decoder.Evidence{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Kind, res.Keywords, res.Charset, res.CharsetSource)
	// Output: isindex [印刷 する] euc-jp hint
}

func ExampleDecoder_Decode() {
	d := decoder.New(decoder.Options{})
	raw, err := d.SplitQuery("page=2", "query")
	if err != nil {
		panic(err)
	}
	if err := d.SplitURLEncoded(raw, "q=%88%F3%8D%FC&_charset_=Shift_JIS", "body"); err != nil {
		panic(err)
	}
	res, err := d.Decode(raw, decoder.Evidence{})
	if err != nil {
		panic(err)
	}
	for _, f := range res.Fields {
		fmt.Println(f.Origin, f.Name, f.Value)
	}
	fmt.Println(res.Charset, res.CharsetSource)
	// Output:
	// query page 2
	// body q 印刷
	// body _charset_ Shift_JIS
	// shift_jis _charset_
}

func ExampleDecoder_SplitTextPlain() {
	d := decoder.New(decoder.Options{})
	raw := &decoder.Raw{}
	if err := d.SplitTextPlain(raw, "name=Ada\r\nnote=1+1=2\r\n", "body"); err != nil {
		panic(err)
	}
	res, _ := d.Decode(raw, decoder.Evidence{})
	fmt.Printf("%q %q\n", res.Values("name"), res.Values("note"))
	// Output: ["Ada"] ["1+1=2"]
}

func ExampleDecoder_Add() {
	d := decoder.New(decoder.Options{})
	raw := &decoder.Raw{}
	// A multipart/form-data text part: its bytes need no percent-decoding.
	if err := d.Add(raw, "city", "\x93\x8c\x8b\x9e", "body"); err != nil {
		panic(err)
	}
	res, _ := d.Decode(raw, decoder.Evidence{ContentTypeCharset: "shift_jis"})
	fmt.Println(res.Values("city"), res.CharsetSource)
	// Output: [東京] content-type
}

func ExampleParseHint() {
	h, rest, ok := decoder.ParseHint("[JIS0208:EUC]:q=%B0%F5")
	fmt.Println(h.Charset, rest, ok)
	h, _, _ = decoder.ParseHint("[EUC]:%B0%F5")
	fmt.Println(h.Family)
	// Output:
	// euc-jp q=%B0%F5 true
	// [euc-jp euc-kr gbk]
}

func ExampleParseURLHint() {
	h, url, _ := decoder.ParseURLHint("http:[EUC]//www.jacme.co.jp/%B0%F5%BA%FE.html")
	fmt.Println(h.Label, url)
	// Output: EUC http://www.jacme.co.jp/%B0%F5%BA%FE.html
}

func ExampleEncodeForm() {
	q, err := decoder.EncodeForm([]decoder.Field{{Name: "q", Value: "印刷 する"}}, decoder.EncodeOptions{Charset: "shift_jis"})
	fmt.Println(q, err)
	// Output: q=%88%F3%8D%FC+%82%B7%82%E9 <nil>
}

func ExampleEncodeKeywords() {
	q, _ := decoder.EncodeKeywords([]string{"foo", "bar+baz"}, decoder.EncodeOptions{})
	fmt.Println(q)
	// Output: foo+bar%2Bbaz
}

func ExampleEscape() {
	var b strings.Builder
	decoder.Escape(&b, []byte("a b&c=d~"))
	fmt.Println(b.String())
	// Output: a+b%26c%3Dd%7E
}

func ExampleBinder_Bind() {
	var form struct {
		Name string   `schema:"name"`
		Tags []string `schema:"tags"`
	}
	err := decoder.NewBinder(decoder.BindOptions{}).Bind(&form, []decoder.Field{
		{Name: "name", Value: "Ada"}, {Name: "tags", Value: "x"}, {Name: "tags", Value: "y"},
	})
	fmt.Println(form.Name, form.Tags, err)
	// Output: Ada [x y] <nil>
}

func ExampleResult_Values() {
	res, _ := decoder.New(decoder.Options{}).DecodeQuery("x=1&y=2&x=3", decoder.Evidence{})
	fmt.Println(res.Values("x"))
	// Output: [1 3]
}

func ExampleDecoder_ChooseCharset() {
	// A URL's path shares its query's charset: hand it over as context.
	d := decoder.New(decoder.Options{})
	r, _ := d.SplitQuery("[EUC]:", "query")
	r.Context = []string{"\xb0\xf5\xba\xfe.html"}
	ch, _ := d.ChooseCharset(r, decoder.Evidence{Host: "www.jacme.co.jp"})
	fmt.Println(ch.Charset.Name(), ch.Source)
	// Output: euc-jp hint
}

func ExampleNeedsCharset() {
	fmt.Println(decoder.NeedsCharset("plain ascii"), decoder.NeedsCharset("\xb0\xf5"), decoder.NeedsCharset("\x1b$B0u\x1b(B"))
	// Output: false true true
}
