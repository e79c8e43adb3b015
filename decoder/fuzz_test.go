package decoder

import (
	"reflect"
	"runtime"
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

// Bounds FuzzDecodeIsBoundedByInput holds Decode to. Every input byte
// decodes to at most three bytes of UTF-8 (a U+FFFD, or a character of a
// single-byte charset); a two-byte character to at most four. A warning is
// a sentence, a place (a name cut to shownNameBytes), one sequence's bytes,
// a charset name and a few offsets.
const (
	maxWarningBytes   = 512
	allocPerInputByte = 16
	allocConstant     = 4 << 20 // the sniffer's tables and scratch, per sample
)

// FuzzDecodeIsBoundedByInput: whatever the input, what Decode returns and
// what it allocates grow at most linearly with the input, and its warnings
// not at all.
func FuzzDecodeIsBoundedByInput(f *testing.F) {
	f.Add("msg="+strings.Repeat("%FF", 20000), "", "utf-8", false)
	f.Add("", "msg="+strings.Repeat("\xff", 60000), "utf-8", false)
	f.Add("", "msg="+strings.Repeat("%G%", 20000), "", false)
	f.Add("", "msg="+strings.Repeat("%00", 20000), "", false)
	f.Add("", "msg="+strings.Repeat("&#0;", 20000), "", true)
	f.Add("", strings.Repeat("f=%FF%zz&", 1000), "utf-8", false)
	f.Add(strings.Repeat("%FF", 20000), "", "shift_jis", false)
	f.Add("", "msg="+strings.Repeat("\xff\xfe\x81\x8d", 1<<15), "", false)
	f.Add("q=%88%F3&_charset_=shift_jis", "", "", false)
	f.Add("[EUC]:%B0%F5", "", "", false)
	// The sniffer builds its tables on first use: not the fuzzed input's cost.
	New(Options{}).DecodeQuery("a=%B0%F5%C7%D1", Evidence{})
	f.Fuzz(func(t *testing.T, query, body, label string, ncr bool) {
		d := New(Options{NCR: ncr, Limits: Limits{ValueBytes: -1, NameBytes: -1, TotalBytes: -1}})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := d.SplitQuery(query, "query")
		if err == nil {
			err = d.SplitURLEncoded(r, body, "body")
		}
		var res *Result
		if err == nil {
			res, err = d.Decode(r, Evidence{ContentTypeCharset: label})
		}
		runtime.ReadMemStats(&after)
		if err != nil {
			return // a limit, or an unknown label
		}
		in := len(query) + len(body)
		out := 0
		for _, k := range res.Keywords {
			out += len(k)
		}
		for _, fl := range res.Fields {
			out += len(fl.Name) + len(fl.Value)
		}
		if out > 4*in+16 {
			t.Errorf("%d bytes in decoded to %d", in, out)
		}
		warned := 0
		for _, w := range res.Warnings {
			warned += len(w)
			if len(w) > maxWarningBytes {
				t.Errorf("a warning of %d bytes: %.200q", len(w), w)
			}
		}
		if n := len(res.Warnings); n > DefaultMaxWarnings+1 {
			t.Errorf("%d warnings (%d bytes) for %d bytes in; want at most %d", n, warned, in, DefaultMaxWarnings+1)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(allocPerInputByte*in+allocConstant) {
			t.Errorf("%d bytes in allocated %d", in, alloc)
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
