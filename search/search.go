package search

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder"
)

// Result is one matching document.
type Result struct {
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

// Query is a parsed query (ParseQuery).
type Query struct {
	needles []needle
}

// ParseQuery makes a query of keywords, as received (ISINDEX words or a
// search box's value). More than maxWords words in all is a
// *decoder.LimitError.
func ParseQuery(keywords []string, maxWords int) (*Query, error) {
	n, err := queryNeedles(keywords, maxWords)
	if err != nil {
		return nil, err
	}
	return &Query{needles: n}, nil
}

// Folder is a folder of documents to search. The zero value but Dir is
// the defaults.
type Folder struct {
	// Dir holds the documents: .txt and .html files, in subfolders too.
	Dir string
	// TextCharset is the charset (a WHATWG or IANA label) of the .txt
	// documents that are neither valid UTF-8 nor marked by a byte order
	// mark; empty: each is sniffed. HTML documents say theirs in a <meta>,
	// or are sniffed (decodeDoc).
	TextCharset string
	// Log receives what the site's owner must know and a visitor must
	// not see (an index that cannot be used, a document skipped by a
	// scan); nil: the log package.
	Log func(format string, args ...any)
}

func (f *Folder) logf(format string, args ...any) {
	if f.Log != nil {
		f.Log(format, args...)
		return
	}
	log.Printf(format, args...)
}

// Search looks for documents in f.Dir (.txt and .html, recursively, no
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
// With an index built by Build (DIR/.cgigate-index) the
// search reads only the index, and gives what the scan would give for the
// documents as they were when it was built: the index is trusted, never
// compared with the documents' times (that would cost a stat of every
// document per request). Without one, every document is read. An index
// that cannot be used (corrupt, unreadable, another version) is logged
// and the documents are scanned, with a warning in the answer.
//
// A document that cannot be read is skipped: the scan logs it, Build
// reports it; a visitor never sees server file names. A missing or
// unreadable dir is a server fault.
func (f *Folder) Search(q *Query) ([]Result, []string, error) {
	dir, needles := f.Dir, q.needles
	if len(needles) == 0 {
		return []Result{}, nil, nil
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("index %w", err)
	}
	results, err := searchIndex(filepath.Join(dir, IndexName), needles)
	if err == nil {
		return results, nil, nil
	}
	var warns []string
	if !errors.Is(err, fs.ErrNotExist) {
		// A broken index is the site's problem, not the client's: the
		// reason goes to Apache's error log, the answer is still a search.
		f.logf("cgigate: %v; searching the documents directly", err)
		warns = append(warns, "search index unusable (see the server log): the documents were searched directly")
	}
	results, skips, err := f.scan(dir, needles)
	for _, s := range skips {
		f.logf("cgigate: %s", s)
	}
	return results, warns, err
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
func (f *Folder) scan(dir string, needles []needle) ([]Result, []string, error) {
	var results []Result
	warns, err := f.eachDoc(dir, func(rel, title, text string) error {
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
func rank(results []Result) []Result {
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
		results = []Result{}
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
func (f *Folder) eachDoc(dir string, fn func(rel, title, text string) error) ([]string, error) {
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
		title, text, err := f.readDoc(path)
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

// readDoc returns a document's title and text, read in its charset
// (decodeDoc).
func (f *Folder) readDoc(path string) (title, text string, err error) {
	fd, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer fd.Close()
	b, err := io.ReadAll(io.LimitReader(fd, maxDocBytes+1))
	if err != nil {
		return "", "", err
	}
	if len(b) > maxDocBytes {
		return "", "", fmt.Errorf("larger than %d bytes", maxDocBytes)
	}
	html := !strings.EqualFold(filepath.Ext(path), ".txt")
	text, _, _ = decodeDoc(b, html, f.TextCharset)
	if !html {
		return "", text, nil
	}
	return htmlText([]byte(text))
}

// match scores a document: every needle must occur in its folded title or
// text. The index calls it too, for the documents it shows.
func match(title, text string, needles []needle) (Result, bool) {
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
			return Result{}, false
		}
		score += n.weight * c
	}
	r := Result{Title: title, Score: float64(score)}
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
