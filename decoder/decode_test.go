package decoder

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/decoder/charset"
)

// encodeCase is one line of testdata/decoder/encode.json, made by Python's
// codecs (gen_encode.py beside it).
type encodeCase struct {
	Charset  string `json:"charset"`
	Text     string `json:"text"`
	Hex      string `json:"hex"`
	Value    string `json:"value"`
	Keywords string `json:"keywords"`
}

func readEncodeCases(t *testing.T) []encodeCase {
	t.Helper()
	b, err := os.ReadFile("../testdata/decoder/encode.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []encodeCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestCharsetSources(t *testing.T) {
	tests := []struct {
		name   string
		query  string
		opts   Options
		ev     Evidence
		want   string // the value of q, or the first keyword
		cs     string
		source Source
	}{
		{"a two-part hint names EUC-JP", "[JIS0208:EUC]:q=%B0%F5%BA%FE", Options{}, Evidence{}, "印刷", "euc-jp", SourceHint},
		{"a WHATWG label in a hint names Shift_JIS", "[Shift_JIS]:%88%F3%8D%FC", Options{}, Evidence{}, "印刷", "shift_jis", SourceHint},
		{"the _charset_ field names the form's charset", "q=%88%F3%8D%FC&_charset_=Shift_JIS", Options{}, Evidence{}, "印刷", "shift_jis", SourceCharsetField},
		{"a hint outranks the _charset_ field", "[EUC-JP]:q=%B0%F5%BA%FE&_charset_=Shift_JIS", Options{}, Evidence{}, "印刷", "euc-jp", SourceHint},
		{"the _charset_ field outranks Content-Type", "q=%B0%F5%BA%FE&_charset_=EUC-JP", Options{}, Evidence{ContentTypeCharset: "shift_jis"}, "印刷", "euc-jp", SourceCharsetField},
		{"Content-Type outranks the deployment", "q=%88%F3%8D%FC", Options{Charset: "euc-jp"}, Evidence{ContentTypeCharset: "shift_jis"}, "印刷", "shift_jis", SourceContentType},
		{"Content-Type outranks the declared form's charset", "q=%88%F3%8D%FC", Options{FormCharset: "euc-jp"}, Evidence{ContentTypeCharset: "shift_jis"}, "印刷", "shift_jis", SourceContentType},
		{"the _charset_ field outranks the declared form's charset", "q=%88%F3%8D%FC&_charset_=Shift_JIS", Options{FormCharset: "euc-jp"}, Evidence{}, "印刷", "shift_jis", SourceCharsetField},
		{"the declared form's charset outranks the deployment's", "q=%B0%F5%BA%FE", Options{FormCharset: "euc-jp", Charset: "shift_jis"}, Evidence{}, "印刷", "euc-jp", SourceForm},
		{"the declared form's charset spares a guess that would read EUC-KR", "q=%B0%F5%BA%FE", Options{FormCharset: "euc-jp"}, Evidence{}, "印刷", "euc-jp", SourceForm},
		{"the declared form's charset names even ASCII's charset", "q=abc", Options{FormCharset: "shift_jis"}, Evidence{}, "abc", "shift_jis", SourceForm},
		{"the deployment's charset applies when the request names none", "q=%B0%F5%BA%FE", Options{Charset: "EUC-JP"}, Evidence{}, "印刷", "euc-jp", SourceConfig},
		{"valid UTF-8 is sniffed as UTF-8", "q=%E5%8D%B0%E5%88%B7", Options{}, Evidence{}, "印刷", "utf-8", SourceSniffed},
		{"ASCII needs no sniffing and reports the default", "q=abc", Options{}, Evidence{}, "abc", "utf-8", SourceDefault},
		{"with sniffing off, unnamed bytes are UTF-8 by default", "q=%E5%8D%B0", Options{NoSniff: true}, Evidence{}, "印", "utf-8", SourceDefault},
		{"iso-8859-1 means windows-1252 as browsers read it", "q=%80", Options{Charset: "iso-8859-1"}, Evidence{}, "€", "windows-1252", SourceConfig},
		{"a UTF-16 label means UTF-8 for a form", "q=%C3%A9", Options{Charset: "utf-16le"}, Evidence{}, "é", "utf-8", SourceConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New(tt.opts).DecodeQuery(tt.query, tt.ev)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if vs := res.Values("q"); len(vs) > 0 {
				got = vs[0]
			} else if len(res.Keywords) > 0 {
				got = res.Keywords[0]
			}
			if got != tt.want || res.Charset != tt.cs || res.CharsetSource != tt.source {
				t.Errorf("got %q in %s from %s, want %q in %s from %s", got, res.Charset, res.CharsetSource, tt.want, tt.cs, tt.source)
			}
		})
	}
}

func TestCharsetErrors(t *testing.T) {
	tests := []struct {
		name, query string
		ev          Evidence
		source      Source
		label       string
	}{
		{"an unknown hint label is named", "[x-klingon]:q=1", Evidence{}, SourceHint, "x-klingon"},
		{"an unknown _charset_ value is named", "q=1&_charset_=utf-7", Evidence{}, SourceCharsetField, "utf-7"},
		{"an unknown Content-Type charset is named", "q=%C3%A9", Evidence{ContentTypeCharset: "bogus"}, SourceContentType, "bogus"},
		{"the replacement encoding is refused, not used", "q=1&_charset_=iso-2022-kr", Evidence{}, SourceCharsetField, "iso-2022-kr"},
		{"a label with non-ASCII white space is refused", "q=1&_charset_=%C2%A0utf-8", Evidence{}, SourceCharsetField, "\u00a0utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Options{}).DecodeQuery(tt.query, tt.ev)
			var e *CharsetError
			if !errors.As(err, &e) || e.Source != tt.source || e.Label != tt.label {
				t.Fatalf("err = %v, want *CharsetError for %q from %s", err, tt.label, tt.source)
			}
			var u *charset.UnknownError
			if !errors.As(err, &u) {
				t.Errorf("err = %v does not wrap *charset.UnknownError", err)
			}
		})
	}
}

func TestInvalidBytesAreReplacedAndReported(t *testing.T) {
	res, err := New(Options{Charset: "shift_jis"}).DecodeQuery("q=%82%5C%22", Evidence{})
	if err != nil {
		t.Fatal(err)
	}
	// WHATWG Shift_JIS: 82 5C is no character; the ASCII trail byte is
	// given back, so the backslash and the quote survive.
	if got := res.Values("q")[0]; got != "\uFFFD\\\"" {
		t.Errorf("value = %+q, want U+FFFD then backslash and quote", got)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "82 at offset 0") {
		t.Errorf("warnings = %q, want one naming byte 82 at offset 0", res.Warnings)
	}
	_, err = New(Options{Charset: "shift_jis", Strict: true}).DecodeQuery("q=ok&r=a%82%5C", Evidence{})
	var inv *charset.InvalidError
	if !errors.As(err, &inv) || inv.Offset != 1 || !reflect.DeepEqual(inv.Bytes, []byte{0x82}) {
		t.Errorf("strict err = %v, want *charset.InvalidError at offset 1", err)
	}
}

func TestOverlongUTF8IsNeverASCII(t *testing.T) {
	for _, q := range []string{"p=%C0%AF", "p=%C0%BC", "p=%E0%80%AF", "p=%F0%80%80%AF", "p=%ED%A0%80"} {
		res, err := New(Options{Charset: "utf-8"}).DecodeQuery(q, Evidence{})
		if err != nil {
			t.Fatal(err)
		}
		v := res.Values("p")[0]
		if strings.Trim(v, "\uFFFD") != "" {
			t.Errorf("%s decoded to %+q, want only U+FFFD", q, v)
		}
	}
}

func TestNUL(t *testing.T) {
	res, err := New(Options{}).DecodeQuery("f=abc%00def", Evidence{})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Values("f")[0]; v != "abc\uFFFDdef" || len(res.Warnings) != 1 {
		t.Errorf("value %+q, warnings %q: want NUL replaced by U+FFFD with a warning", v, res.Warnings)
	}
	if _, err := New(Options{Strict: true}).DecodeQuery("f=abc%00def", Evidence{}); err == nil {
		t.Error("strict decoding accepted a NUL")
	}
}

func TestNCR(t *testing.T) {
	tests := []struct {
		name, in, want string
		warnings       int
	}{
		{"a decimal reference becomes its character", "&#21360;", "印", 0},
		{"a hexadecimal reference becomes its character", "&#x5370;&#X5237;", "印刷", 0},
		{"a surrogate stays as written", "&#55296;", "&#55296;", 1},
		{"a number beyond Unicode stays as written", "&#1114112;", "&#1114112;", 1},
		{"zero stays as written", "&#0;", "&#0;", 1},
		{"a reference without its semicolon is text", "&#21360", "&#21360", 0},
		{"a signed number is text", "&#+65;", "&#+65;", 0},
		{"an ampersand that starts nothing is text", "a & b &# c", "a & b &# c", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			Escape(&b, []byte(tt.in))
			res, err := New(Options{NCR: true}).DecodeQuery("v="+b.String(), Evidence{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Values("v")[0]; got != tt.want || len(res.Warnings) != tt.warnings {
				t.Errorf("got %q with warnings %q, want %q with %d", got, res.Warnings, tt.want, tt.warnings)
			}
		})
	}
	res, _ := New(Options{}).DecodeQuery("v=%26%2321360%3B", Evidence{})
	if got := res.Values("v")[0]; got != "&#21360;" {
		t.Errorf("without the option a reference must stay text, got %q", got)
	}
}

// TestPythonEncodedBytesDecode checks decoding against bytes Python's
// codecs made, with the charset named by a hint.
func TestPythonEncodedBytesDecode(t *testing.T) {
	for _, c := range readEncodeCases(t) {
		t.Run(c.Charset+" "+c.Text, func(t *testing.T) {
			res, err := New(Options{}).DecodeQuery("v="+c.Value+"&_charset_="+c.Charset, Evidence{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Values("v")[0]; got != c.Text || len(res.Warnings) != 0 {
				t.Errorf("decoded %q (warnings %q), want %q", got, res.Warnings, c.Text)
			}
			raw, _ := hex.DecodeString(c.Hex)
			r, _ := New(Options{}).SplitQuery("v="+c.Value, "query")
			if r.Pairs[0].Value != string(raw) {
				t.Errorf("percent-decoded % X, want Python's % X", r.Pairs[0].Value, raw)
			}
		})
	}
}
