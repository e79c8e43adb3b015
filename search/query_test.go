package search

import (
	"errors"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/decoder"
)

// queryDocs are documents for the query language's cases.
var queryDocs = map[string]string{
	"offset.txt":    "Offset printing\nWe do offset printing and letterpress.",
	"apart.txt":     "Printing\nPrinting is done by offset machines.",
	"letter.txt":    "Letterpress\nOnly letterpress here.",
	"kappan.txt":    "活版印刷\n活版印刷と印刷サービスのご案内",
	"spaced.txt":    "印刷　サービス\nご案内: 印刷　サービスです。",
	"printing.html": "<title>Nothing</title><p>Colour and paper.</p>",
}

func TestQueryLanguage(t *testing.T) {
	dir := makeIndex(t, queryDocs)
	cases := []struct {
		name     string
		keywords []string
		want     string // paths, in rank order
	}{
		{"every word must occur", []string{"offset", "printing"}, "offset.txt apart.txt"},
		{"a full-width space separates words in one keyword", []string{"印刷\u3000サービス"}, "spaced.txt kappan.txt"},
		{"a word is found inside a longer one", []string{"印刷"}, "kappan.txt spaced.txt"},
		{"a phrase matches its words side by side", []string{`"offset`, `printing"`}, "offset.txt"},
		{"a phrase in one keyword, as a search box sends it", []string{`"offset printing"`}, "offset.txt"},
		{"a CJK phrase matches its characters in sequence, spaced or not", []string{`"印刷 サービス"`}, "spaced.txt kappan.txt"},
		{"a CJK phrase that is not in sequence finds nothing", []string{`"サービス 印刷"`}, ""},
		{"-word excludes", []string{"printing", "-letterpress"}, "apart.txt"},
		{"-\"phrase\" excludes the phrase only", []string{"printing", `-"offset printing"`}, "apart.txt"},
		{"OR accepts either", []string{"machines", "OR", "only"}, "apart.txt letter.txt"},
		{"OR binds two words, the others still required", []string{"offset", "letterpress", "OR", "machines"}, "offset.txt apart.txt"},
		{"OR at the end is the word or", []string{"printing", "OR"}, ""},
		{"only an excluded word finds nothing", []string{"-printing"}, ""},
		{"a lone - is a word", []string{"-"}, ""},
		{"an open quote runs to the end", []string{`"offset printing`}, "offset.txt"},
	}
	check := func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				hits, err := indexOrScan(dir, queryOf(t, tc.keywords...))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, h := range hits {
					got = append(got, h.rel)
				}
				if strings.Join(got, " ") != tc.want {
					t.Errorf("%q found %q; want %q", tc.keywords, got, tc.want)
				}
			})
		}
	}
	t.Run("by the scan", check)
	if _, err := (&Folder{Dir: dir}).Build(); err != nil {
		t.Fatal(err)
	}
	t.Run("by the index", check)
}

// indexOrScan searches dir's index when it has one, else scans it.
func indexOrScan(dir string, q *Query) ([]hit, error) {
	hits, err := indexAll(dir+"/"+IndexName, q)
	if err == nil {
		return hits, nil
	}
	hits, _, err = scanAll(dir, q)
	return hits, err
}

func TestParseQuery(t *testing.T) {
	for _, tc := range []struct {
		name     string
		keywords []string
		all      int // groups
		none     int
		phrases  int
	}{
		{"two words, two groups", []string{"a", "b"}, 2, 0, 0},
		{"OR makes one group of two", []string{"a OR b"}, 1, 0, 0},
		{"a quoted word is no phrase", []string{`"a"`}, 1, 0, 0},
		{"a quoted pair is", []string{`"a b"`}, 1, 0, 1},
		{"OR next to an excluded word is a word", []string{"a OR -b"}, 2, 1, 0},
		{"a no-break space inside a word makes two required words, not a phrase", []string{"a\u00a0b"}, 2, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := queryOf(t, tc.keywords...)
			phrases := 0
			for _, g := range q.all {
				for _, it := range g {
					if it.phrase {
						phrases++
					}
				}
			}
			if len(q.all) != tc.all || len(q.none) != tc.none || phrases != tc.phrases {
				t.Errorf("%q: %d groups, %d excluded, %d phrases (%+v)", tc.keywords, len(q.all), len(q.none), phrases, q)
			}
		})
	}
}

func TestParseQueryLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		max   int
		words int
		ok    bool
	}{
		{"the limit's words pass", 3, 3, true},
		{"one more is a LimitError", 3, 4, false},
		{"0 is the decoder's default limit", 0, decoder.DefaultMaxKeywords, true},
		{"0 refuses one past the default", 0, decoder.DefaultMaxKeywords + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseQuery([]string{strings.Repeat("w ", tc.words)}, tc.max)
			var le *decoder.LimitError
			if (err == nil) != tc.ok || err != nil && !errors.As(err, &le) {
				t.Errorf("%d words, limit %d: %v", tc.words, tc.max, err)
			}
		})
	}
}

func TestHighlights(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		keywords   []string
		want       string // the snippet with [ ] around each highlight
	}{
		{"every occurrence of every word", "print it, Print it again", []string{"print", "again"}, "[print] it, [Print] it [again]"},
		{"code points, not bytes", "活版印刷と印刷", []string{"印刷"}, "活版[印刷]と[印刷]"},
		{"overlapping words merge", "letterpress", []string{"letter", "terp"}, "[letterp]ress"},
		{"a folded match covers its whole original character", "Straße", []string{"strasse"}, "[Straße]"},
		{"half of a character that folds to two covers the character", "Straße", []string{"stras"}, "[Straß]e"},
		{"an excluded word is not highlighted", "a c", []string{"a", "-b", `-"c d"`}, "[a] c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := match("", tc.text, queryOf(t, tc.keywords...))
			if !ok {
				t.Fatal("no match")
			}
			var b strings.Builder
			for _, p := range r.Parts() {
				if p.Mark {
					b.WriteString("[" + p.Text + "]")
				} else {
					b.WriteString(p.Text)
				}
			}
			if b.String() != tc.want {
				t.Errorf("%s (%v); want %s", b.String(), r.Highlights, tc.want)
			}
		})
	}
}

func TestNaturalCompare(t *testing.T) {
	paths := []string{"d1.txt", "d2.txt", "d10.txt", "d11.txt", "d100.txt", "e.txt", "sub/d9/x.txt", "sub/d10/x.txt"}
	for i := range paths {
		for j := range paths {
			if got, want := naturalCompare(paths[i], paths[j]), compareInts(i, j); got != want {
				t.Errorf("naturalCompare(%q, %q) = %d; want %d", paths[i], paths[j], got, want)
			}
		}
	}
	if naturalCompare("d01", "d1") == 0 {
		t.Error("d01 and d1 compare equal: the order would depend on the walk")
	}
}

func compareInts(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
