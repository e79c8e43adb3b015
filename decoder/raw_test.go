package decoder

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/vectors"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name, query string
		want        Kind
	}{
		{"an empty query is empty", "", Empty},
		{"words joined by plus are an ISINDEX search", "foo+bar", ISINDEX},
		{"an encoded equals sign does not make a form", "a%3Db", ISINDEX},
		{"an ampersand alone does not make a form", "a&b", ISINDEX},
		{"one unencoded equals sign makes a form", "a=b", Form},
		{"a lone equals sign is a form", "=", Form},
		{"a charset hint is removed before classifying", "[EUC-JP]:%B0%F5", ISINDEX},
		{"a charset hint before pairs leaves a form", "[EUC-JP]:q=%B0%F5", Form},
		{"a hint alone leaves an empty query", "[EUC-JP]:", Empty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.query); got != tt.want {
				t.Errorf("Classify(%q) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
}

func TestSplitQueryKeywords(t *testing.T) {
	tests := []struct {
		name, query string
		want        []string
	}{
		{"an encoded plus is a literal plus inside a word", "foo+bar%2Bbaz", []string{"foo", "bar+baz"}},
		{"empty words between pluses are dropped", "a++b+", []string{"a", "b"}},
		{"words split on plus before percent-decoding", "x%2By+z", []string{"x+y", "z"}},
		{"an encoded equals sign is a character of the word", "a%3Db", []string{"a=b"}},
		{"an encoded percent is decoded exactly once", "%252e", []string{"%2e"}},
		{"words that look like options are only words", "-debug+-config+evil.conf", []string{"-debug", "-config", "evil.conf"}},
		{"shell metacharacters are only characters", "a%26b+%3B%24%60%28%29%5C", []string{"a&b", ";$`()\\"}},
	}
	d := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := d.SplitQuery(tt.query, "query")
			if err != nil {
				t.Fatal(err)
			}
			if r.Kind != ISINDEX || !reflect.DeepEqual(r.Keywords, tt.want) {
				t.Errorf("SplitQuery(%q) = %v %q, want isindex %q", tt.query, r.Kind, r.Keywords, tt.want)
			}
		})
	}
}

func pairs(r *Raw) [][2]string {
	out := [][2]string{}
	for _, p := range r.Pairs {
		out = append(out, [2]string{p.Name, p.Value})
	}
	return out
}

func TestSplitQueryPairs(t *testing.T) {
	tests := []struct {
		name, query string
		opts        Options
		want        [][2]string
		warnings    int
	}{
		{"a semicolon is not a separator by default", "a=1;b=2", Options{}, [][2]string{{"a", "1;b=2"}}, 0},
		{"a semicolon separates with the HTML 4 option", "a=1;b=2", Options{Semicolon: true}, [][2]string{{"a", "1"}, {"b", "2"}}, 0},
		{"a pair splits at its first equals sign", "a=b=c", Options{}, [][2]string{{"a", "b=c"}}, 0},
		{"a pair without equals sign has an empty value", "a&b=", Options{}, [][2]string{{"a", ""}, {"b", ""}}, 0},
		{"plus is a space in names and values", "a+b=c+d&e=%2B", Options{}, [][2]string{{"a b", "c d"}, {"e", "+"}}, 0},
		{"order and duplicates are kept", "x=1&y=2&x=3", Options{}, [][2]string{{"x", "1"}, {"y", "2"}, {"x", "3"}}, 0},
		{"a malformed escape is kept literally with a warning", "a=%zz&b=%4&c=%", Options{}, [][2]string{{"a", "%zz"}, {"b", "%4"}, {"c", "%"}}, 3},
		{"encoded syntax is decoded to data", "%3D=%26", Options{}, [][2]string{{"=", "&"}}, 0},
		{"a lone equals sign is an empty name and value", "=", Options{}, [][2]string{{"", ""}}, 0},
		{"empty sequences are skipped", "&&a=1&&", Options{}, [][2]string{{"a", "1"}}, 0},
		{"an encoded percent is decoded exactly once", "p=..%255c..%255cwinnt", Options{}, [][2]string{{"p", "..%5c..%5cwinnt"}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(tt.opts).SplitQuery(tt.query, "query")
			if err != nil {
				t.Fatal(err)
			}
			if got := pairs(r); r.Kind != Form || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitQuery(%q) = %v %q, want form %q", tt.query, r.Kind, got, tt.want)
			}
			if len(r.Warnings) != tt.warnings {
				t.Errorf("warnings = %q, want %d", r.Warnings, tt.warnings)
			}
		})
	}
}

func TestStrictEscapeNamesTheOffset(t *testing.T) {
	_, err := New(Options{Strict: true}).SplitQuery("good=1&bad=%zz", "query")
	var e *EscapeError
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *EscapeError", err)
	}
	if e.Offset != 11 || e.Escape != "%zz" || e.Origin != "query" {
		t.Errorf("EscapeError = %+v, want offset 11, escape %%zz, origin query", e)
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name, query string
		limits      Limits
		limit       string
	}{
		{"more fields than allowed", strings.Repeat("a=1&", 11), Limits{Fields: 10}, "fields"},
		{"more keywords than allowed", strings.Repeat("w+", 6), Limits{Keywords: 5}, "keywords"},
		{"a name longer than allowed", strings.Repeat("n", 9) + "=1", Limits{NameBytes: 8}, "name bytes"},
		{"a value longer than allowed", "v=" + strings.Repeat("%41", 9), Limits{ValueBytes: 8}, "value bytes"},
		{"more raw bytes than allowed", "v=" + strings.Repeat("x", 100), Limits{TotalBytes: 64}, "total bytes"},
		{"the default field limit holds", strings.Repeat("a=1&", DefaultMaxFields+1), Limits{}, "fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Options{Limits: tt.limits}).SplitQuery(tt.query, "query")
			var e *LimitError
			if !errors.As(err, &e) || e.Limit != tt.limit {
				t.Fatalf("err = %v, want *LimitError on %s", err, tt.limit)
			}
		})
	}
	if _, err := New(Options{Limits: Limits{Fields: -1}}).SplitQuery(strings.Repeat("a=1&", 20000), "query"); err != nil {
		t.Errorf("a negative limit should mean none: %v", err)
	}
}

func TestSplitTextPlain(t *testing.T) {
	d := New(Options{})
	r := &Raw{}
	if err := d.SplitTextPlain(r, "a=b=c\r\nd\r\n\r\ne=%41+\r\n", "body"); err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"a", "b=c"}, {"d", ""}, {"e", "%41+"}}
	if got := pairs(r); !reflect.DeepEqual(got, want) {
		t.Errorf("pairs = %q, want %q (text/plain is not percent-decoded)", got, want)
	}
}

// TestWPTURLEncoded runs the web-platform-tests vectors for the WHATWG
// application/x-www-form-urlencoded parser, which decodes as UTF-8.
func TestWPTURLEncoded(t *testing.T) {
	var cases []struct {
		Input  string      `json:"input"`
		Output [][2]string `json:"output"`
	}
	if err := json.Unmarshal(vectors.Read(t, "wpt/urlencoded-parser-data.json"), &cases); err != nil {
		t.Fatal(err)
	}
	// The WHATWG parser ignores _charset_; cgigate takes it as the form's
	// charset (HTML § 4.10.21.4), so this one case decodes in windows-1252:
	// Python: b"\xc2x".decode("cp1252") == "Âx".
	differs := map[string][][2]string{
		"_charset_=windows-1252&test=%C2x": {{"_charset_", "windows-1252"}, {"test", "Âx"}},
	}
	d := New(Options{Charset: "utf-8"})
	for _, c := range cases {
		want := c.Output
		if w, ok := differs[c.Input]; ok {
			want = w
		}
		r := &Raw{}
		if err := d.SplitURLEncoded(r, c.Input, "body"); err != nil {
			t.Errorf("%q: %v", c.Input, err)
			continue
		}
		res, err := d.Decode(r, Evidence{})
		if err != nil {
			t.Errorf("%q: %v", c.Input, err)
			continue
		}
		got := [][2]string{}
		for _, f := range res.Fields {
			got = append(got, [2]string{f.Name, f.Value})
		}
		if len(want) == 0 {
			want = [][2]string{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %q, want %q", c.Input, got, want)
		}
	}
	if len(cases) < 30 {
		t.Errorf("only %d WPT cases read", len(cases))
	}
}
