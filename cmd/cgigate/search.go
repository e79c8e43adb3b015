package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// searchResult is one matching document.
type searchResult struct {
	Title   string  `json:"title"`
	URL     string  `json:"url"`
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
}

// Bounds of a search: an index is a folder a site maintains, but a CGI
// process must still answer fast.
const (
	maxDocs       = 10000
	maxDocBytes   = 4 << 20
	maxResults    = 50
	snippetRadius = 80 // bytes of text each side of the first match
)

// search looks for documents in dir (.txt and .html, recursively, no
// symlinks followed) in which every keyword occurs. Text is folded with
// NFKC and Unicode full case folding (UAX #15, Unicode § 3.13, via x/text),
// so width and case do not matter: "ｲﾝｻﾂ" finds "インサツ", "STRASSE" finds
// "Straße". Results are ranked by the number of occurrences (a match in
// the title counts three times), ties by path; the URL is the document's
// path relative to dir, each segment escaped: the site publishes the
// folder at that relative URL.
//
// With an index built by "cgigate -index DIR" (DIR/.cgigate-index) the
// search reads only the index, and gives what the scan would give for the
// documents as they were when it was built: the index is trusted, never
// compared with the documents' times (that would cost a stat of every
// document per request). Without one, every document is read. An index
// that cannot be used (corrupt, unreadable, another version) is logged to
// stderr and the documents are scanned, with a warning in the answer.
//
// A document that cannot be read or is not valid UTF-8 is skipped with a
// warning; a missing or unreadable dir is a server fault.
func search(dir string, keywords []string) ([]searchResult, []string, error) {
	needles := foldKeywords(keywords)
	if len(needles) == 0 {
		return []searchResult{}, nil, nil
	}
	results, warns, err := searchIndex(filepath.Join(dir, indexName), needles)
	if err == nil {
		return results, warns, nil
	}
	warns = nil
	if !errors.Is(err, fs.ErrNotExist) {
		// A broken index is the site's problem, not the client's: the
		// reason goes to Apache's error log, the answer is still a search.
		log.Printf("cgigate: %v; searching the documents directly", err)
		warns = append(warns, "search index unusable (see the server log): the documents were searched directly")
	}
	results, swarns, err := scan(dir, needles)
	return results, append(warns, swarns...), err
}

// foldKeywords folds the query's words as the documents are folded, leaving
// out the words that fold to nothing.
func foldKeywords(keywords []string) []string {
	var needles []string
	for _, k := range keywords {
		if f := fold(k).text; f != "" {
			needles = append(needles, f)
		}
	}
	return needles
}

// scan is the search without an index: it reads every document.
func scan(dir string, needles []string) ([]searchResult, []string, error) {
	var results []searchResult
	warns, err := eachDoc(dir, func(rel, title, text string) error {
		if r, ok := match(title, text, needles); ok {
			r.URL = docURL(rel)
			results = append(results, r)
		}
		return nil
	})
	if err != nil {
		return nil, warns, err
	}
	return rank(results), warns, nil
}

// rank orders results by score, then URL, and keeps the first maxResults.
func rank(results []searchResult) []searchResult {
	sort.SliceStable(results, func(i, j int) bool {
		if results[i].Score != results[j].Score {
			return results[i].Score > results[j].Score
		}
		return results[i].URL < results[j].URL
	})
	if len(results) > maxResults {
		results = results[:maxResults]
	}
	if results == nil {
		results = []searchResult{}
	}
	return results
}

// eachDoc calls fn with every searchable document of dir: .txt and .html
// files, recursively, no symlinks followed, at most maxDocs of them in
// walk (lexical) order; title is the path relative to dir when the
// document has none. A document that cannot be read or is not valid UTF-8
// is skipped with a warning; a missing or unreadable dir is an error. The
// scan and the index builder both walk with it, so they see the same
// documents.
func eachDoc(dir string, fn func(rel, title, text string) error) ([]string, error) {
	var warns []string
	n := 0
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			warns = append(warns, fmt.Sprintf("index: %s skipped: %v", rel(dir, path), err))
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(path))
		if ext != ".txt" && ext != ".html" && ext != ".htm" {
			return nil
		}
		if n++; n > maxDocs {
			return fs.SkipAll
		}
		title, text, err := readDoc(path, ext)
		if err != nil {
			warns = append(warns, fmt.Sprintf("index: %s skipped: %v", rel(dir, path), err))
			return nil
		}
		r := rel(dir, path)
		if title == "" {
			title = r
		}
		return fn(r, title, text)
	})
	if err != nil {
		return warns, fmt.Errorf("index %s: %w", dir, err)
	}
	return warns, nil
}

func rel(dir, path string) string {
	r, err := filepath.Rel(dir, path)
	if err != nil {
		return filepath.Base(path)
	}
	return filepath.ToSlash(r)
}

// docURL is a relative URL for a document's path. A first segment with a
// ':' would read as a scheme ("javascript:x.txt"), so it gets "./" (RFC
// 3986 § 4.2).
func docURL(rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.Join(segs, "/")
	if strings.Contains(segs[0], ":") {
		u = "./" + u
	}
	return u
}

// readDoc returns a document's title and text.
func readDoc(path, ext string) (title, text string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxDocBytes+1))
	if err != nil {
		return "", "", err
	}
	if len(b) > maxDocBytes {
		return "", "", fmt.Errorf("larger than %d bytes", maxDocBytes)
	}
	if !utf8.Valid(b) {
		return "", "", fmt.Errorf("not valid UTF-8")
	}
	if ext == ".txt" {
		return "", string(b), nil
	}
	return htmlText(b)
}

// folded is text after NFKC and full case folding, with a map from each
// folded segment back to where it started in the original.
type folded struct {
	text   string
	starts []int  // folded offset where segment i starts
	orig   []int  // original offset of segment i
	run    []bool // segment i is a run of ASCII bytes, each folded to one byte
}

var folder = cases.Fold() // stateless (x/text's caseFolder): safe to share

// fold folds s segment by segment (norm.Iter cuts at normalization
// boundaries), so that a match in the folded text maps back to the
// original for the snippet. It is the one folding of the search: the
// query's words, the scanned documents and the index all go through it.
//
// The result is cases.Fold of norm.NFKC of s (folding is context-free, so
// it folds segment by segment as well as whole). An ASCII byte that
// norm.Iter gives as a segment of its own is its own NFKC form and folds
// to its lower case (CaseFolding.txt folds no other ASCII), so runs of
// them are copied without x/text and mapped by one entry: most text is
// such runs, and this is most of the cost of a search.
func fold(s string) folded {
	var f folded
	b := make([]byte, 0, len(s)+len(s)/8)
	var it norm.Iter
	it.InitString(norm.NFKC, s)
	for !it.Done() {
		pos := it.Pos()
		seg := it.Next()
		if len(seg) == 1 && seg[0] < utf8.RuneSelf && it.Pos() == pos+1 { // not Ａ or K (KELVIN SIGN)
			if n := len(f.run); n == 0 || !f.run[n-1] {
				f.starts, f.orig, f.run = append(f.starts, len(b)), append(f.orig, pos), append(f.run, true)
			}
			c := seg[0]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			continue
		}
		f.starts, f.orig, f.run = append(f.starts, len(b)), append(f.orig, pos), append(f.run, false)
		b = appendFolded(b, seg)
	}
	f.text = string(b)
	return f
}

// appendFolded appends seg case folded to b, without a string per segment.
func appendFolded(b, seg []byte) []byte {
	for {
		n, m, err := folder.Transform(b[len(b):cap(b)], seg, true)
		b, seg = b[:len(b)+n], seg[m:]
		if err != transform.ErrShortDst {
			if err != nil { // not expected of a folder at EOF: the slow way
				b = append(b, folder.Bytes(seg)...)
			}
			return b
		}
		b = slices.Grow(b, 4*len(seg)+utf8.UTFMax)
	}
}

// origOffset maps a folded offset to the start of its original segment
// (inside an ASCII run, to its byte).
func (f folded) origOffset(off int) int {
	i := sort.Search(len(f.starts), func(i int) bool { return f.starts[i] > off }) - 1
	if i < 0 {
		return 0
	}
	if f.run[i] {
		return f.orig[i] + off - f.starts[i]
	}
	return f.orig[i]
}

func match(title, text string, needles []string) (searchResult, bool) {
	ft, fb := fold(title), fold(text)
	score := 0
	first := -1
	for _, n := range needles {
		c := strings.Count(fb.text, n) + 3*strings.Count(ft.text, n)
		if c == 0 {
			return searchResult{}, false
		}
		score += c
		if i := strings.Index(fb.text, n); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	r := searchResult{Title: title, Score: float64(score)}
	if first >= 0 {
		r.Snippet = snippet(text, fb.origOffset(first))
	} else {
		r.Snippet = snippet(text, 0)
	}
	return r, true
}

// snippet is the text around offset at, cut at rune boundaries, with
// whitespace collapsed; the renderers escape it.
func snippet(text string, at int) string {
	lo, hi := max(0, at-snippetRadius), min(len(text), at+snippetRadius)
	for lo > 0 && !utf8.RuneStart(text[lo]) {
		lo--
	}
	for hi < len(text) && !utf8.RuneStart(text[hi]) {
		hi++
	}
	s := strings.Join(strings.FieldsFunc(text[lo:hi], unicode.IsSpace), " ")
	if lo > 0 {
		s = "…" + s
	}
	if hi < len(text) {
		s += "…"
	}
	return s
}
