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

	"github.com/cgigate/cgigate/decoder"
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
// symlinks followed below dir) in which every needle occurs (see
// queryNeedles). Text is folded with NFKC and Unicode full case folding
// (UAX #15, Unicode § 3.13, via x/text), so width and case do not matter:
// "ｲﾝｻﾂ" finds "インサツ", "STRASSE" finds "Straße". Results are ranked by
// the number of occurrences, each needle's times its weight (a match in
// the title counts three times), ties by path; the URL is the document's
// path relative to dir, each segment escaped: the site publishes the
// folder at that relative URL.
//
// dir itself may be a symbolic link: it is resolved once, so that the
// index and the scan read the same folder (filepath.WalkDir does not
// follow a root that is a link).
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
func search(dir string, needles []needle) ([]searchResult, []string, error) {
	if len(needles) == 0 {
		return []searchResult{}, nil, nil
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("index %w", err)
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

// needle is a word of the query, folded, and how many times the query
// holds it.
type needle struct {
	word   string
	weight int
}

// queryNeedles folds the query's keywords as the documents are folded and
// cuts them into words at white space (isTermSep): a keyword may hold some
// ("a%20b", U+3000) or fold to some (U+00A0, U+FDFA under NFKC). The
// words, repeats included, count against max, the decoder's limit on
// keywords (a *decoder.LimitError above it, as the decoder gives): a
// query's cost is then bounded by its words, not by what one keyword
// hides. A repeated word is searched once, with the number of times it
// occurs as its weight, so the ranking is that of the words searched one
// by one.
func queryNeedles(keywords []string, max int) ([]needle, error) {
	var needles []needle
	at := map[string]int{}
	n := 0
	for _, k := range keywords {
		for w := range strings.FieldsFuncSeq(fold(k).text, isTermSep) {
			if n++; n > max {
				return nil, &decoder.LimitError{Limit: "keywords", Max: max}
			}
			if i, ok := at[w]; ok {
				needles[i].weight++
				continue
			}
			at[w] = len(needles)
			needles = append(needles, needle{word: w, weight: 1})
		}
	}
	return needles, nil
}

// scan is the search without an index: it reads every document.
func scan(dir string, needles []needle) ([]searchResult, []string, error) {
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
		if !e.Type().IsRegular() || !isDocName(path) {
			return nil
		}
		if n++; n > maxDocs {
			return fs.SkipAll
		}
		r := rel(dir, path)
		if strings.Contains(r, `\`) {
			// Legal in a Linux name, but an index holding one is refused
			// (docPathValid): the scan leaves it out as well.
			warns = append(warns, fmt.Sprintf("index: %s skipped: a backslash in its name", r))
			return nil
		}
		title, text, err := readDoc(path)
		if err != nil {
			warns = append(warns, fmt.Sprintf("index: %s skipped: %v", r, err))
			return nil
		}
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

// isDocName tells whether a file is a searchable document by its name.
func isDocName(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".txt", ".html", ".htm":
		return true
	}
	return false
}

// docPathValid tells whether rel is a path eachDoc can give: relative,
// slash-separated, no "." or ".." or empty element (fs.ValidPath), no
// backslash or NUL, a document's name. An index's stored path must be one: it becomes a
// link, and "//evil.example/x" or "../x" would lead off the site.
func docPathValid(rel string) bool {
	return fs.ValidPath(rel) && !strings.ContainsAny(rel, "\\\x00") && isDocName(rel)
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
func readDoc(path string) (title, text string, err error) {
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
	if strings.EqualFold(filepath.Ext(path), ".txt") {
		return "", string(b), nil
	}
	return htmlText(b)
}

// folded is text after NFKC and full case folding, with a map from the
// folded text back to the original.
type folded struct {
	text  string
	spans []span // in order of start
}

// span is a stretch of folded text that starts at start and came from the
// original at orig. In a run, each rune came from a rune of the same
// length (ASCII, 印 or Σ→σ): an offset inside maps to its own rune; else
// the span is one segment or character, which may fold to many (ﬁ to
// "fi", U+FDFA to 18 letters and spaces), and maps to its start. Offsets
// are int32: a document is at most maxDocBytes, whose folding is at most
// 11 times as long (U+FDFA, 3 bytes to 33).
type span struct {
	start, orig int32
	run         bool
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
// them are copied without x/text: most text is such runs, and this is
// most of the cost of a search.
//
// The map has at most one span per rune of s, whatever the folding makes
// of it: norm.Iter gives a character that decomposes into several
// starters as that many segments at one position (U+FDFA as 18), which
// share their span; a rune that folds to one rune of its own length
// joins the run before it. Its memory is so bounded by len(s) (12 bytes
// a span, a rune at least 2 bytes when not in a run).
func fold(s string) folded {
	var f folded
	b := make([]byte, 0, len(s)+len(s)/8)
	// mark records that the folded text from start came from pos, unless
	// the last span already maps it.
	mark := func(start, pos int, run bool) {
		if n := len(f.spans); n > 0 && f.spans[n-1].run == run && (run || int(f.spans[n-1].orig) == pos) {
			return
		}
		if len(f.spans) == cap(f.spans) { // as b below: room for the rest at this rate
			f.spans = grow(f.spans, 1+len(f.spans)*(len(s)-pos)/max(pos, 1))
		}
		f.spans = append(f.spans, span{start: int32(start), orig: int32(pos), run: run})
	}
	var it norm.Iter
	it.InitString(norm.NFKC, s)
	for !it.Done() {
		pos, start := it.Pos(), len(b)
		seg := it.Next()
		if len(seg) == 1 && seg[0] < utf8.RuneSelf && it.Pos() == pos+1 { // not Ａ or K (KELVIN SIGN)
			c := seg[0]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			mark(start, pos, true)
			continue
		}
		if need := 4*len(seg) + utf8.UTFMax; cap(b)-len(b) < need {
			// Out of room: size b for the rest of s folding as it has so
			// far (U+FDFA makes 11 times as much), one allocation for a
			// uniform text rather than one per doubling.
			b = grow(b, max(need, len(b)*(len(s)-pos)/max(pos, 1)))
		}
		b = appendFolded(b, seg)
		_, size := utf8.DecodeRuneInString(s[pos:])
		mark(start, pos, it.Pos() == pos+size && len(b)-start == size && utf8.RuneCount(b[start:]) == 1)
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
		b = grow(b, 4*len(seg)+utf8.UTFMax)
	}
}

// grow makes room for n more elements in s, doubling its capacity at
// least: append grows a large slice by a quarter, which would allocate
// about five times the final size of a long folding on the way.
func grow[E any](s []E, n int) []E {
	if cap(s)-len(s) >= n {
		return s
	}
	return slices.Grow(s, max(n, cap(s)))
}

// origOffset maps a folded offset to the start of its original segment
// (inside a run, to its own byte).
func (f folded) origOffset(off int) int {
	i := sort.Search(len(f.spans), func(i int) bool { return int(f.spans[i].start) > off }) - 1
	if i < 0 {
		return 0
	}
	if sp := f.spans[i]; sp.run {
		return int(sp.orig) + off - int(sp.start)
	}
	return int(f.spans[i].orig)
}

// match scores a document: every needle must occur in its folded title or
// text. The index calls it too, for the documents it shows.
func match(title, text string, needles []needle) (searchResult, bool) {
	ft, fb := fold(title), fold(text)
	score := 0
	first := -1
	for _, n := range needles {
		i := strings.Index(fb.text, n.word)
		c := 3 * strings.Count(ft.text, n.word)
		if i >= 0 {
			c += 1 + strings.Count(fb.text[i+len(n.word):], n.word)
			if first < 0 || i < first {
				first = i
			}
		}
		if c == 0 {
			return searchResult{}, false
		}
		score += n.weight * c
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
