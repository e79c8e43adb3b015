package decoder

import (
	"slices"
	"testing"
)

// The hints of the table in hintCharset's comment, spelled as forms and
// pages wrote them, each with the encoding the comment gives it.
func TestEveryDocumentedHintResolvesToItsEncoding(t *testing.T) {
	tests := []struct{ label, charset string }{
		{"JIS0208:EUC", "euc-jp"}, {"jis0212:euc", "euc-jp"}, {"JISX0208:EUC", "euc-jp"},
		{"JIS0208:SJIS", "shift_jis"}, {"JIS0208:Shift_JIS", "shift_jis"}, {"JISX0208:SJIS", "shift_jis"}, {"SJIS", "shift_jis"},
		{"JIS0208:ISO2022", "iso-2022-jp"}, {"JIS0208:JIS", "iso-2022-jp"}, {"JIS", "iso-2022-jp"}, {"ISO-2022", "iso-2022-jp"},
		{"KSC5601:EUC", "euc-kr"}, {"KSX1001:EUC", "euc-kr"}, {"KSC5601:ISO2022", "iso-2022-kr"},
		{"GB2312:EUC", "gbk"}, {"GBK:GBK", "gbk"}, {"GB2312:HZ", "hz-gb-2312"}, {"GB18030:GB18030", "gb18030"},
		{"BIG5:BIG5", "big5"}, {"Big5", "big5"},
		{"UCS:UTF8", "utf-8"}, {"UNICODE:UTF-8", "utf-8"}, {"ISO10646:UTF_8", "utf-8"},
	}
	for _, tt := range tests {
		if h := resolveHint(tt.label); h.Charset != tt.charset || h.Family != nil {
			t.Errorf("[%s] resolves to %+v, want %s", tt.label, h, tt.charset)
		}
	}
	if h := resolveHint("euc"); !slices.Equal(h.Family, []string{"euc-jp", "euc-kr", "gbk"}) || h.Charset != "" {
		t.Errorf("[euc] resolves to %+v, want the EUC family", h)
	}
	// A family's list is the caller's: changing it changes no later hint.
	resolveHint("EUC").Family[0] = "x"
	if h := resolveHint("EUC"); h.Family[0] != "euc-jp" {
		t.Errorf("a changed family list leaked into the next hint: %v", h.Family)
	}
}
