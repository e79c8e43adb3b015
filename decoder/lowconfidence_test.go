package decoder

import (
	"strings"
	"testing"
)

func TestLowConfidenceWarning(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		warned      bool
		says        []string
	}{
		{"EUC-JP 印刷 sniffed as EUC-KR is flagged, naming the EUC-JP reading", "q=%B0%F5%BA%FE", true,
			[]string{"charset sniffed as euc-kr with confidence 0.", "under 0.80", `"곰빤"`, `euc-jp "印刷"`}},
		{"a long Japanese text sniffed with confidence is not flagged", "q=" + strings.Repeat("%88%F3%8D%FC%82%B7%82%E9%82%B1%82%C6", 8), false, nil},
		{"a charset named by the request is never flagged", "q=%B0%F5%BA%FE&_charset_=euc-kr", false, nil},
		{"ASCII is never flagged", "q=abc", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := New(Options{}).DecodeQuery(tc.query, Evidence{})
			if err != nil {
				t.Fatal(err)
			}
			var warning string
			for _, w := range res.Warnings {
				if strings.HasPrefix(w, "charset sniffed as") {
					warning = w
				}
			}
			if (warning != "") != tc.warned {
				t.Fatalf("charset %s, confidence %v, warnings %q", res.Charset, res.Confidence, res.Warnings)
			}
			t.Log(warning)
			if tc.warned && res.Confidence >= LowConfidence {
				t.Errorf("warned at confidence %v", res.Confidence)
			}
			for _, s := range tc.says {
				if !strings.Contains(warning, s) {
					t.Errorf("warning %q does not say %q", warning, s)
				}
			}
		})
	}
}
