package charset

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/badinput"
)

// value is the percent-decoded value of a bad-input case's "q=...".
func value(t *testing.T, c badinput.Case) []byte {
	t.Helper()
	v, err := url.QueryUnescape(strings.TrimPrefix(c.Input, "q="))
	if err != nil {
		t.Fatalf("case %d: %v", c.ID, err)
	}
	return []byte(v)
}

// charsetCase returns bad-input case id, which must be a charset case.
func charsetCase(t *testing.T, id int) badinput.Case {
	t.Helper()
	c, ok := badinput.ByID(id)
	if !ok || c.Theme != "charset" {
		t.Fatalf("bad-input case %d is missing or not a charset case", id)
	}
	return c
}

// TestTheBadInputCorpusCharsetCasesArePinned pins what Decode does with
// each charset case of the bad-input table (internal/badinput, ids 36-47
// and 71): the text and where each error is, as the Encoding Standard says.
func TestTheBadInputCorpusCharsetCasesArePinned(t *testing.T) {
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
			k := charsetCase(t, tc.id)
			c, err := Lookup(k.Charset)
			if err != nil {
				t.Fatalf("Lookup(%q): %v", k.Charset, err)
			}
			if c.Name() != tc.wantName {
				t.Errorf("Lookup(%q).Name() = %q, want %q", k.Charset, c.Name(), tc.wantName)
			}
			src := value(t, k)
			got, bad := c.Decode(src)
			var at []int
			for _, b := range bad {
				at = append(at, b.Offset)
			}
			if got != tc.want || !slices.Equal(at, tc.errsAt) {
				t.Errorf("%s Decode(% X) = %+q errors at %v; want %+q errors at %v (case: %s)", c.Name(), src, got, at, tc.want, tc.errsAt, k.Want)
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
			k := charsetCase(t, tc.id)
			labels := tc.labels
			if labels == nil {
				labels = []string{k.Charset}
			}
			for _, l := range labels {
				if !strings.Contains(k.Charset, l) {
					t.Fatalf("label %q is not in the case's labels %q", l, k.Charset)
				}
				var u *UnknownError
				if c, err := Lookup(l); !errors.As(err, &u) {
					t.Errorf("Lookup(%q) = %v, %v; want *UnknownError (case: %s)", l, c, err, k.Want)
				}
			}
		})
	}
}
