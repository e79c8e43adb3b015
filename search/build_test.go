package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestRunsMergeIntoTheSameIndex(t *testing.T) {
	dir := corpus(t, 300, 4)
	build := func(postings, positions int) []byte {
		t.Helper()
		defer func(n, m int) { runPostings, runPositions = n, m }(runPostings, runPositions)
		runPostings, runPositions = postings, positions
		st, err := (&Folder{Dir: dir}).Rebuild()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(st.Segment)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one := build(1<<30, 1<<30)
	for _, tc := range []struct{ postings, positions int }{{1, 1 << 30}, {97, 1 << 30}, {5000, 1 << 30}, {1 << 30, 1000}} {
		t.Run(fmt.Sprintf("runs of %d postings or %d bytes of positions write the file one run writes, byte for byte", tc.postings, tc.positions), func(t *testing.T) {
			if got := build(tc.postings, tc.positions); !bytes.Equal(got, one) {
				t.Errorf("%d bytes; one run wrote %d", len(got), len(one))
			}
			if left, _ := filepath.Glob(filepath.Join(dir, IndexName+"-*")); len(left) != 0 {
				t.Errorf("left behind: %q", left)
			}
		})
	}
}

func TestMoreThanTenThousandDocuments(t *testing.T) {
	docs := map[string]string{}
	for i := range 10001 {
		docs[fmt.Sprintf("d%d/%d.txt", i/1000, i)] = fmt.Sprintf("doc %d", i)
	}
	dir := makeIndex(t, docs)
	st, err := (&Folder{Dir: dir}).Build()
	if err != nil || st.Docs != 10001 {
		t.Fatalf("%v: %d documents", err, st.Docs)
	}
	a := searchFolder(t, dir, "doc")
	if len(a.Results) != 1000 {
		t.Errorf("%d results on a page of 1000", len(a.Results))
	}
	p, err := (&Folder{Dir: dir}).Search(queryOf(t, "10000"), 1, 10)
	if err != nil || p.Total != 1 || p.Results[0].URL != "d10/10000.txt" {
		t.Errorf("%v %+v", err, p)
	}
	p, err = (&Folder{Dir: dir}).Search(queryOf(t, "doc"), 1, 10)
	if err != nil || p.Total != 10001 || p.Results[0].URL != "d0/0.txt" || p.Results[9].URL != "d0/9.txt" {
		t.Errorf("%v %+v", err, p)
	}
}
