package decoder

import "testing"

// The bytes below are Python's: "印刷".encode("shift_jis"), "한국".encode("euc_kr"),
// "印刷".encode("euc_jp"), "こんにちは".encode("iso2022_jp"), "Привет".encode("cp1251").
func TestUnnamedCharsetsAreSniffed(t *testing.T) {
	tests := []struct {
		name, query string
		ev          Evidence
		want, cs    string
		source      Source
	}{
		{"Shift_JIS search words are sniffed", "%88%F3%8D%FC", Evidence{}, "印刷", "shift_jis", SourceSniffed},
		{"a bare EUC hint is resolved within its family: Korean", "[EUC]:%C7%D1%B1%B9", Evidence{}, "한국", "euc-kr", SourceHint},
		{"a bare EUC hint is resolved within its family: Japanese under .jp", "[EUC]:%B0%F5%BA%FE", Evidence{Host: "www.jacme.co.jp"}, "印刷", "euc-jp", SourceHint},
		{"ISO-2022-JP is sniffed from its escape sequences", "q=%1B%24B%243%24s%24K%24A%24O%1B%28B", Evidence{}, "こんにちは", "iso-2022-jp", SourceSniffed},
		{"windows-1251 Russian is sniffed", "q=%CF%F0%E8%E2%E5%F2", Evidence{}, "Привет", "windows-1251", SourceSniffed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New(Options{}).DecodeQuery(tt.query, tt.ev)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(res.Keywords) > 0 {
				got = res.Keywords[0]
			} else if vs := res.Values("q"); len(vs) > 0 {
				got = vs[0]
			}
			if got != tt.want || res.Charset != tt.cs || res.CharsetSource != tt.source {
				t.Errorf("got %q in %s from %s (confidence %.2f), want %q in %s from %s",
					got, res.Charset, res.CharsetSource, res.Confidence, tt.want, tt.cs, tt.source)
			}
		})
	}
}

func TestChooseCharsetWeighsTheContext(t *testing.T) {
	// The query is ASCII; the path segment holds 印刷 in EUC-JP (Python's
	// "印刷".encode("euc_jp")), which decides the family hint.
	r := &Raw{Hint: &Hint{Label: "EUC", Family: []string{"euc-jp", "euc-kr", "gbk"}}, Context: []string{"\xb0\xf5\xba\xfe.html"}}
	ch, err := New(Options{}).ChooseCharset(r, Evidence{Host: "www.jacme.co.jp"})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Charset.Name() != "euc-jp" || ch.Source != SourceHint || len(r.Warnings) != 0 {
		t.Errorf("chose %s from %s (warnings %q), want euc-jp from the hint", ch.Charset.Name(), ch.Source, r.Warnings)
	}
}

func TestAFamilyHintOverASCIITakesItsFirstMemberWithoutAWarning(t *testing.T) {
	res, err := New(Options{}).DecodeQuery("[EUC]:plain+words", Evidence{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Charset != "euc-jp" || res.CharsetSource != SourceHint || res.Confidence != 1 || len(res.Warnings) != 0 {
		t.Errorf("got %s from %s, confidence %v, warnings %q", res.Charset, res.CharsetSource, res.Confidence, res.Warnings)
	}
}
