package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

func TestGenerateSite(t *testing.T) {
	const n = 1000
	a, b := t.TempDir(), t.TempDir()
	docs, err := GenerateSite(a, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	again, err := GenerateSite(b, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the same seed writes the same documents", func(t *testing.T) {
		if !slices.Equal(docs, again) {
			t.Fatal("two runs with seed 1 listed different documents")
		}
		for _, d := range docs {
			x, errA := os.ReadFile(filepath.Join(a, d.Path))
			y, errB := os.ReadFile(filepath.Join(b, d.Path))
			if errA != nil || errB != nil || !bytes.Equal(x, y) {
				t.Fatalf("%s differs between two runs with seed 1 (%v, %v)", d.Path, errA, errB)
			}
		}
	})
	t.Run("another seed writes other documents", func(t *testing.T) {
		c := t.TempDir()
		if _, err := GenerateSite(c, 10, 2); err != nil {
			t.Fatal(err)
		}
		x, _ := os.ReadFile(filepath.Join(a, docs[0].Path))
		y, _ := os.ReadFile(filepath.Join(c, docs[0].Path))
		if bytes.Equal(x, y) {
			t.Errorf("%s is the same with seeds 1 and 2", docs[0].Path)
		}
	})
	t.Run("the languages are mixed about 4:3:3, half the documents HTML", func(t *testing.T) {
		langs := map[string]int{}
		html := 0
		for _, d := range docs {
			langs[d.Lang]++
			if strings.HasSuffix(d.Path, ".html") {
				html++
			}
		}
		if len(docs) != n || html != n/2 {
			t.Errorf("%d documents, %d HTML; want %d, %d", len(docs), html, n, n/2)
		}
		for lang, share := range map[string]int{English: 400, German: 300, Japanese: 300} {
			if got := langs[lang]; got < share-60 || got > share+60 {
				t.Errorf("%d documents in %s, want %d ± 60", got, lang, share)
			}
		}
	})
	t.Run("legacy charsets are written, each where Omega reads it", func(t *testing.T) {
		count := map[string]int{}
		for _, d := range docs {
			count[d.Charset]++
			data, err := os.ReadFile(filepath.Join(a, d.Path))
			if err != nil {
				t.Fatal(err)
			}
			legacy := d.Charset != "utf-8"
			if legacy == utf8.Valid(data) {
				t.Errorf("%s (%s, %s): valid UTF-8 is %v", d.Path, d.Lang, d.Charset, utf8.Valid(data))
			}
			isHTML := strings.HasSuffix(d.Path, ".html")
			switch {
			case d.Charset == "windows-1252" && d.Lang != German,
				(d.Charset == "shift_jis" || d.Charset == "euc-jp") && (d.Lang != Japanese || !isHTML):
				t.Errorf("%s: %s %s, which Omega would not read", d.Path, d.Lang, d.Charset)
			}
		}
		for _, cs := range []string{"windows-1252", "shift_jis", "euc-jp"} {
			if count[cs] < 10 {
				t.Errorf("%d documents in %s, want at least 10 of %d", count[cs], cs, n)
			}
		}
	})
	// What each query needs in a document, as it is written there: a
	// compound's part is in lower case inside it.
	need := map[string][]string{
		"paper quality": {"paper", "quality"}, `"offset printing"`: {"offset printing"},
		"Haltestelle": {"haltestelle"}, `"für Bücher"`: {"für Bücher"},
	}
	var words []string
	for _, q := range SiteQueries {
		if w, ok := need[q.Text]; ok {
			words = append(words, w...)
		} else {
			words = append(words, q.Text)
		}
	}
	truth, err := Containing(a, words)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("every query's words occur, but the missing word", func(t *testing.T) {
		for _, w := range words {
			if got := len(truth[w]); (w == MissingWord) != (got == 0) {
				t.Errorf("%q is in %d documents", w, got)
			}
		}
	})
	t.Run("Japanese words searched for only inside runs never stand alone", func(t *testing.T) {
		for _, q := range SiteQueries {
			if q.Lang != Japanese || !strings.Contains(q.Kind, "inside runs only") {
				continue
			}
			for _, p := range truth[q.Text] {
				data, _ := os.ReadFile(filepath.Join(a, p))
				text, _ := decodeDocument(data, strings.HasSuffix(p, ".html"))
				for rest := text; ; {
					before, after, ok := strings.Cut(rest, q.Text)
					if !ok {
						break
					}
					prev, _ := utf8.DecodeLastRuneInString(before)
					next, _ := utf8.DecodeRuneInString(after)
					if !isRunChar(prev) || !isRunChar(next) {
						t.Fatalf("%s: %q between %q and %q, not inside a run", p, q.Text, prev, next)
					}
					rest = after
				}
			}
		}
	})
}

// isRunChar is a character of an unsegmented Japanese run: a letter, not
// a space or a punctuation mark.
func isRunChar(r rune) bool { return unicode.IsLetter(r) }

func TestContainingDecodesEachDocumentInItsCharset(t *testing.T) {
	dir := t.TempDir()
	sjis, _ := japanese.ShiftJIS.NewEncoder().String(`<meta charset="shift_jis"><p>活版印刷所</p>`)
	euc, _ := japanese.EUCJP.NewEncoder().String(`<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP"><p>東京都の印刷</p>`)
	latin1, _ := charmap.ISO8859_1.NewEncoder().String("Die Größe der Bücher\n")
	files := map[string]string{
		"sjis.html":   sjis,
		"euc.html":    euc,
		"latin1.txt":  latin1,
		"utf8.txt":    "\ufeff印刷とGröße\n",
		"skipped.css": "印刷 Größe",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Containing(dir, []string{"印刷", "Größe", "東京", "なし"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"印刷":    {"euc.html", "sjis.html", "utf8.txt"},
		"Größe": {"latin1.txt", "utf8.txt"},
		"東京":    {"euc.html"},
	}
	for w, paths := range want {
		slices.Sort(got[w])
		if !slices.Equal(got[w], paths) {
			t.Errorf("documents containing %q: %q, want %q", w, got[w], paths)
		}
	}
	if len(got["なし"]) != 0 {
		t.Errorf("a word in no document was found in %q", got["なし"])
	}
}
