package decoder

import (
	"fmt"
	"strings"
	"testing"
)

func TestWarningsAreOnePerPieceAndKindWithACount(t *testing.T) {
	const n = 1 << 16
	tests := []struct {
		name, query string
		opts        Options
		want        string // the one warning
	}{
		{"escaped bytes invalid in UTF-8 are one warning", "msg=" + strings.Repeat("%FF", n), Options{Charset: "utf-8"},
			fmt.Sprintf("field value 1 (msg): bytes FF at offset 0 are invalid in utf-8, replaced by U+FFFD; %d invalid sequences (%d bytes) in all, the next at offsets 1, 2", n, n)},
		{"raw bytes invalid in UTF-8 are one warning", "msg=ok" + strings.Repeat("\xe3\x81", n), Options{Charset: "utf-8"},
			fmt.Sprintf("field value 1 (msg): bytes E3 81 at offset 2 are invalid in utf-8, replaced by U+FFFD; %d invalid sequences (%d bytes) in all, the next at offsets 4, 6", n, 2*n)},
		{"bytes invalid in Shift_JIS in a keyword are one warning", strings.Repeat("%FF", n), Options{Charset: "shift_jis"},
			fmt.Sprintf("keyword 1: bytes FF at offset 0 are invalid in shift_jis, replaced by U+FFFD; %d invalid sequences (%d bytes) in all, the next at offsets 1, 2", n, n)},
		{"malformed escapes are one warning", "msg=" + strings.Repeat("%G%", n), Options{},
			fmt.Sprintf(`query offset 4: malformed escape "%%G%%" kept as it is; %d malformed escapes in field value 1 in all, the next at offsets 6, 7`, 2*n)},
		{"malformed escapes in a name are one warning", strings.Repeat("%", n) + "=v", Options{},
			fmt.Sprintf(`query offset 0: malformed escape "%%%%%%" kept as it is; %d malformed escapes in field name 1 in all, the next at offsets 1, 2`, n)},
		{"NULs are one warning", "msg=" + strings.Repeat("%00", n), Options{},
			fmt.Sprintf("field value 1 (msg): %d NULs replaced by U+FFFD", n)},
		{"references to no character are one warning", "msg=" + strings.Repeat("%26%230%3B", n), Options{NCR: true},
			fmt.Sprintf(`field value 1 (msg): character reference "&#0;" is not a character, kept as written; %d such references in all`, n)},
		{"a long name is cut short in a warning", strings.Repeat("n", 1000) + "=%FF", Options{Charset: "utf-8"},
			"field value 1 (" + strings.Repeat("n", shownNameBytes) + "…): bytes FF at offset 0 are invalid in utf-8, replaced by U+FFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Limits = Limits{NameBytes: -1, ValueBytes: -1, TotalBytes: -1}
			res, err := New(tt.opts).DecodeQuery(tt.query, Evidence{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) != 1 || res.Warnings[0] != tt.want {
				t.Errorf("warnings %q\nwant [%q]", res.Warnings, tt.want)
			}
		})
	}
}

func TestARequestHasAtMostLimitsWarningsAndALineForTheRest(t *testing.T) {
	// fields makes n fields, each with one byte invalid in UTF-8 and, with
	// escapes, one malformed escape: two warnings each.
	fields := func(n int, escapes bool) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "f%d=%%FF", i)
			if escapes {
				b.WriteString("%zz")
			}
			b.WriteByte('&')
		}
		return b.String()
	}
	tests := []struct {
		name, query string
		limit       int
		want        int // warnings kept
		more        string
	}{
		{"the default keeps 20", fields(100, false), 0, 20, "80 more warnings not shown"},
		{"warnings up to the limit need no last line", fields(20, false), 0, 20, ""},
		{"one past the limit is counted", fields(21, false), 0, 20, "1 more warning not shown"},
		{"splitting and decoding share the limit", fields(10, true), 5, 5, "15 more warnings not shown"},
		{"a negative limit keeps them all", fields(100, true), -1, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Options{Charset: "utf-8", Limits: Limits{Warnings: tt.limit}})
			res, err := d.DecodeQuery(tt.query, Evidence{})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Warnings
			if tt.more != "" {
				if len(got) == 0 || got[len(got)-1] != tt.more {
					t.Fatalf("warnings %q; want the last to be %q", got, tt.more)
				}
				got = got[:len(got)-1]
			}
			if len(got) != tt.want {
				t.Errorf("%d warnings %q; want %d", len(got), got, tt.want)
			}
			if len(got) > 0 && !strings.HasPrefix(got[0], "query offset") && !strings.HasPrefix(got[0], "field value 1 (f0)") {
				t.Errorf("first warning %q; want the first problem's", got[0])
			}
		})
	}
}

func TestStrictStillRefusesTheFirstProblem(t *testing.T) {
	tests := []struct {
		name, query string
		opts        Options
		want        string
	}{
		{"the first malformed escape", "a=ok&b=x%G%%zz", Options{Strict: true},
			`decoder: malformed percent escape "%G%" at query offset 8`},
		{"the first invalid byte", "a=ok&b=x%FF%FE", Options{Strict: true, Charset: "utf-8"},
			`decoder: charset "utf-8" from config: charset: bytes FF at offset 1 are invalid in utf-8`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts).DecodeQuery(tt.query, Evidence{})
			if err == nil || err.Error() != tt.want {
				t.Errorf("err %v; want %s", err, tt.want)
			}
		})
	}
}
