package decoder

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzDecodeQuery(f *testing.F) {
	for _, s := range []string{"foo+bar%2Bbaz", "a=1&b=%zz", "[EUC]:%B0%F5", "%252e", "a=%C0%AF", "=", "&&", "q=%88%F3&_charset_=shift_jis", "[x:y]:z"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, q string, semicolon bool) {
		d := New(Options{Semicolon: semicolon, NCR: true})
		r, err := d.SplitQuery(q, "query")
		if err != nil {
			return // limits only: no error is a panic
		}
		body := q
		if _, rest, ok := ParseHint(q); ok {
			body = rest
		}
		if (r.Kind == ISINDEX) != (body != "" && !strings.Contains(body, "=")) {
			t.Fatalf("%q classified %v", q, r.Kind)
		}
		res, err := d.Decode(r, Evidence{})
		if err != nil {
			return // an unknown charset label from the input
		}
		for _, s := range append(append([]string{}, res.Keywords...), res.Warnings...) {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 out: %q", s)
			}
		}
		for _, fl := range res.Fields {
			if !utf8.ValidString(fl.Name) || !utf8.ValidString(fl.Value) || strings.IndexByte(fl.Value, 0) >= 0 {
				t.Fatalf("field %+q: invalid UTF-8 or NUL", fl)
			}
		}
	})
}

// FuzzFormRoundTrip: what EncodeForm writes, SplitQuery and Decode read
// back unchanged, decoding each escape exactly once.
func FuzzFormRoundTrip(f *testing.F) {
	f.Add("name", "%41+&=;")
	f.Add("", "印刷 する")
	f.Fuzz(func(t *testing.T, name, value string) {
		if !utf8.ValidString(name) || !utf8.ValidString(value) || strings.ContainsRune(name+value, 0) {
			return
		}
		q, err := EncodeForm([]Field{{Name: name, Value: value}}, EncodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := New(Options{Charset: "utf-8", Limits: Limits{NameBytes: -1, ValueBytes: -1}}).DecodeQuery(q, Evidence{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Fields) != 1 || res.Fields[0].Name != name || res.Fields[0].Value != value {
			t.Fatalf("%q=%q -> %q -> %+v", name, value, q, res.Fields)
		}
	})
}

type fuzzTarget struct {
	A string
	B []int
	C []struct {
		D float64
		E *string
	}
}

func FuzzBind(f *testing.F) {
	f.Add("c.0.d", "1", "C.-1.E", "x")
	f.Add("b", "1", "B", "2")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		fs := []Field{{Name: k1, Value: v1}, {Name: k2, Value: v2}}
		var first fuzzTarget
		errFirst := NewBinder(BindOptions{MaxIndex: 5}).Bind(&first, fs)
		for i := 0; i < 3; i++ {
			var again fuzzTarget
			err := NewBinder(BindOptions{MaxIndex: 5}).Bind(&again, fs)
			if !reflect.DeepEqual(first, again) || (err == nil) != (errFirst == nil) {
				t.Fatalf("not deterministic: %+v %v / %+v %v", first, errFirst, again, err)
			}
		}
	})
}
