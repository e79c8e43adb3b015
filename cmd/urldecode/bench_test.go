package main

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"testing"
)

// The peer is net/url, which splits and unescapes the same request
// target but knows no charset: the ratio is what choosing and applying one
// costs. Run: go test -run NONE -bench . ./cmd/urldecode
var benchTargets = func() []string {
	var out []string
	for i := 0; i < 64; i++ {
		out = append(out, fmt.Sprintf("/cgi-bin/search?q=%%B0%%F5%%BA%%FE+%d&lang=ja&page=%d", i, i%7))
	}
	return out
}()

func BenchmarkDecodeTarget(b *testing.B) {
	for _, bc := range []struct {
		name  string
		cache bool
	}{{"sniffing each", false}, {"with the sniff cache", true}} {
		b.Run(bc.name, func(b *testing.B) {
			d := newURLDecoder(&config{Host: "www.jacme.co.jp"})
			if !bc.cache {
				d.chooser.cache = nil
			}
			w := bufio.NewWriter(io.Discard)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r, err := d.decode(benchTargets[i%len(benchTargets)], "www.jacme.co.jp")
				if err != nil {
					b.Fatal(err)
				}
				r.writeText(w)
			}
		})
	}
}

func BenchmarkPeerNetURL(b *testing.B) {
	w := bufio.NewWriter(io.Discard)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		u, err := url.ParseRequestURI(benchTargets[i%len(benchTargets)])
		if err != nil {
			b.Fatal(err)
		}
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintln(w, u.Path, q)
	}
}
