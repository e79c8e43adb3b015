package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/bench"
)

func TestGramIndexAnswersAsTheScan(t *testing.T) {
	dir := t.TempDir()
	if _, err := bench.GenerateSite(dir, 300, 5); err != nil {
		t.Fatal(err)
	}
	st, err := (&Folder{Dir: dir}).Build()
	if err != nil {
		t.Fatal(err)
	}
	var queries [][]string
	for _, q := range bench.SiteQueries {
		queries = append(queries, strings.Fields(q.Text))
	}
	for _, w := range []string{
		"印", "刷", "印刷所", "刷所", "エンジン", "検索エ", "東京都", "会社案内", "ですます", // inside Japanese runs
		"haltestelle", "bahnhalt", "straßenbahn", "STRASSENBAHN", "regal", "ordnung", "größen", // inside German compounds
		"rint", "inting", "ffse", "ss", "ß", "e", "ö", // inside longer terms, one code point
		"印刷印刷", "tsetsepsett", "zz", "ﾞ", // grams all there, or none, but not the word
	} {
		queries = append(queries, []string{w})
	}
	found := 0
	for _, q := range queries {
		t.Run(fmt.Sprintf("%q gives the scan's answer", q), func(t *testing.T) {
			if answersAsTheScan(t, dir, st.Path, queryOf(t, q...)) {
				found++
			}
		})
	}
	if found < len(queries)*2/3 {
		t.Errorf("only %d of %d queries found something: the test says little", found, len(queries))
	}
}

// japaneseSite is n documents, each an unsegmented Japanese sentence of
// its own (one term of its own: the dictionary grows with n), "needle" in
// five of them, 活版印刷 inside the sentence of the eighth.
func japaneseSite(t *testing.T, n int) string {
	pieces := strings.Fields("会社 案内 お問い合わせ ください です ます の を に は が と 日本語 文書 情報 技術 開発 品質 用紙 注文 納期 価格 株式会社 大阪 新しい")
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	docs := map[string]string{}
	for i := range n {
		var b strings.Builder
		for j := range 12 {
			if i == 7 && j == 6 {
				b.WriteString("活版印刷")
			}
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		fmt.Fprintf(&b, "第%d号", i)
		text := b.String()
		if i%(n/5) == 0 {
			text += " needle"
		}
		docs[fmt.Sprintf("d%d/%d.txt", i/1000, i)] = text
	}
	return makeIndex(t, docs)
}

// TestQueryCostFollowsTheMatches holds a query to the bytes of the index
// it touches over 1,000 documents and over 20,000 whose dictionary grows
// with the text (a Japanese sentence is one term): the gram lists of its
// word, the terms that hold it, their posting lists and the records
// shown, never the dictionary. A word in no document touches a few
// hundred bytes.
func TestQueryCostFollowsTheMatches(t *testing.T) {
	type costs struct{ needle, missing, japanese searchCost }
	cost := func(n int) costs {
		st, err := (&Folder{Dir: japaneseSite(t, n)}).Build()
		if err != nil {
			t.Fatal(err)
		}
		return costs{
			indexCost(t, st.Path, queryOf(t, "needle")),
			indexCost(t, st.Path, queryOf(t, bench.MissingWord)),
			indexCost(t, st.Path, queryOf(t, "版印")),
		}
	}
	small, large := cost(1000), cost(20000)
	t.Logf("over 20,000 documents %+v; over 1,000 %+v", large, small)
	for _, tc := range []struct {
		name         string
		small, large searchCost
		records      int
	}{
		{"a word in five documents", small.needle, large.needle, 5},
		{"a word in no document", small.missing, large.missing, 0},
		{"a word inside one sentence", small.japanese, large.japanese, 1},
	} {
		t.Run(tc.name+" touches as many bytes over 20,000 documents as over 1,000", func(t *testing.T) {
			if tc.large.bytes > tc.small.bytes*3/2 || tc.large.records != tc.records || tc.small.records != tc.records {
				t.Errorf("over 20,000 documents %+v; over 1,000 %+v", tc.large, tc.small)
			}
		})
	}
	if large.missing.bytes > 1024 {
		t.Errorf("a word in no document touches %d bytes", large.missing.bytes)
	}
}
