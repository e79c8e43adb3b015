package charset

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/vectors"
)

type corpusCase struct {
	ID          int    `json:"id"`
	Layer       string `json:"layer"`
	Input       string `json:"input"`
	Expect      string `json:"expect"`
	CharsetHint string `json:"charset_hint"`
	Ref         string `json:"ref"`
}

// loadCorpus reads the shared bad-input corpus.
func loadCorpus(t *testing.T) map[int]corpusCase {
	t.Helper()
	b := vectors.Read(t, "bad-input-corpus.json")
	var c struct{ Cases []corpusCase }
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	m := map[int]corpusCase{}
	for _, k := range c.Cases {
		m[k.ID] = k
	}
	return m
}

// value is the percent-decoded value of the corpus input "q=...".
func (c corpusCase) value(t *testing.T) []byte {
	t.Helper()
	v, err := url.QueryUnescape(strings.TrimPrefix(c.Input, "q="))
	if err != nil {
		t.Fatalf("case %d: %v", c.ID, err)
	}
	return []byte(v)
}

// TestTheBadInputCorpusCharsetCasesArePinned pins what Decode does with
// each charset case of bad-input-corpus.json (ids 36-47 and 71): the text
// and where each error is, as the Encoding Standard says.
func TestTheBadInputCorpusCharsetCasesArePinned(t *testing.T) {
	corpus := loadCorpus(t)
	decodes := []struct {
		id       int
		name     string
		charset  string // "" to use the case's own hint
		want     string
		errsAt   []int
		wantName string
	}{
		{38, "case 38: a UTF-16 label decodes as UTF-8, for forms are never UTF-16", "", "A\x00", nil, "utf-8"},
		{40, "case 40: an invalid Shift_JIS lead does not eat the quote after it", "", "\uFFFD\"><script>", []int{0}, "shift_jis"},
		{41, "case 41: an unmapped Shift_JIS pair gives back its ASCII backslash", "", "\uFFFD\\\"", []int{0}, "shift_jis"},
		{42, "case 42 (whatwg/encoding#171): an unmapped Big5 pair gives back its ASCII backslash", "", "\uFFFD\\\"", []int{0}, "big5"},
		{43, "case 43: the Shift_JIS trail byte 5C is part of U+8868", "", "\u8868", nil, "shift_jis"},
		{44, "case 44 (addslashes bypass): GBK BF 5C is U+7E17 and the quote stays", "", "\u7E17'", nil, "gbk"},
		{45, "case 45: ISO-2022-JP resumes after an error instead of swallowing the rest", "", "\uFFFD<script>", []int{3}, "iso-2022-jp"},
		{46, "case 46 (UTR #36 § 3.6.2, whatwg/encoding#115): two escapes in a row are an error that splits the word", "", "<scr\uFFFDipt>", []int{7}, "iso-2022-jp"},
		{47, "case 47: the ISO-2022-JP Roman set has yen and overline for 5C and 7E", "", "\u00A5\u203E", nil, "iso-2022-jp"},
		{71, "case 71 (whatwg/encoding#111): a GB18030 four-byte sequence needs digits, so '<' survives", "", "\uFFFD<\uFFFD0script>", []int{0, 2}, "gb18030"},
	}
	for _, tc := range decodes {
		t.Run(tc.name, func(t *testing.T) {
			k, ok := corpus[tc.id]
			if !ok || k.Layer != "charset" {
				t.Fatalf("corpus case %d is missing or not a charset case", tc.id)
			}
			c, err := Lookup(k.CharsetHint)
			if err != nil {
				t.Fatalf("Lookup(%q): %v", k.CharsetHint, err)
			}
			if c.Name() != tc.wantName {
				t.Errorf("Lookup(%q).Name() = %q, want %q", k.CharsetHint, c.Name(), tc.wantName)
			}
			src := k.value(t)
			got, bad := c.Decode(src)
			var at []int
			for _, b := range bad {
				at = append(at, b.Offset)
			}
			if got != tc.want || !slices.Equal(at, tc.errsAt) {
				t.Errorf("%s Decode(% X) = %+q errors at %v; want %+q errors at %v (corpus: %s)", c.Name(), src, got, at, tc.want, tc.errsAt, k.Expect)
			}
			if _, err := c.DecodeStrict(src); (err != nil) != (len(tc.errsAt) > 0) {
				t.Errorf("DecodeStrict error = %v, want one exactly when Decode reports errors", err)
			}
		})
	}

	refusals := []struct {
		id     int
		name   string
		labels []string
	}{
		{36, "case 36: UTF-7 is refused, so +ADw- never becomes '<'", []string{"utf-7"}},
		{37, "case 37: labels of the replacement encoding are refused rather than turning the value into U+FFFD", []string{"iso-2022-kr", "hz-gb-2312", "csiso2022kr"}},
		{39, "case 39: a label wrapped in a no-break space is unknown, as only ASCII white space is trimmed", nil},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			k, ok := corpus[tc.id]
			if !ok || k.Layer != "charset" {
				t.Fatalf("corpus case %d is missing or not a charset case", tc.id)
			}
			labels := tc.labels
			if labels == nil {
				labels = []string{k.CharsetHint}
			}
			for _, l := range labels {
				if !strings.Contains(k.CharsetHint, l) {
					t.Fatalf("label %q is not in the case's hint %q", l, k.CharsetHint)
				}
				var u *UnknownError
				if c, err := Lookup(l); !errors.As(err, &u) {
					t.Errorf("Lookup(%q) = %v, %v; want *UnknownError (corpus: %s)", l, c, err, k.Expect)
				}
			}
		})
	}
}
