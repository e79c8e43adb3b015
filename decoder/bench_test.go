package decoder

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// benchInputs are the three shapes a large form takes: a mostly-ASCII body,
// a heavily escaped one, and many small fields.
func benchInputs() []struct{ name, body string } {
	var ascii, escaped, many strings.Builder
	// 1,000 fields of about 1 KB: net/url refuses more than 10,000.
	for i := 0; ascii.Len() < 1<<20; i++ {
		fmt.Fprintf(&ascii, "field%d=%s&", i%50, strings.Repeat("plain+text+", 95))
	}
	for i := 0; escaped.Len() < 1<<20; i++ {
		fmt.Fprintf(&escaped, "q%d=%s&", i%50, strings.Repeat("%E5%8D%B0%E5%88%B7%20%E3%81%99%26%3D", 30))
	}
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&many, "k%d=v%d&", i, i)
	}
	return []struct{ name, body string }{
		{"ascii-1MB", ascii.String()},
		{"escaped-1MB", escaped.String()},
		{"fields-10k", strings.TrimSuffix(many.String(), "&")},
	}
}

// BenchmarkParseForm puts cgigate beside net/url.ParseQuery on the same
// bytes in the same run; benchstat shows the ratio.
func BenchmarkParseForm(b *testing.B) {
	d := New(Options{Charset: "utf-8", Limits: Limits{Fields: -1, TotalBytes: -1}})
	for _, in := range benchInputs() {
		b.Run(in.name+"/cgigate", func(b *testing.B) {
			b.SetBytes(int64(len(in.body)))
			b.ReportAllocs()
			for b.Loop() {
				r := &Raw{}
				if err := d.SplitURLEncoded(r, in.body, "body"); err != nil {
					b.Fatal(err)
				}
				if _, err := d.Decode(r, Evidence{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(in.name+"/net-url", func(b *testing.B) {
			b.SetBytes(int64(len(in.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := url.ParseQuery(in.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
