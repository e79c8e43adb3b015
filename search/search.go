package search

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Result is one matching document.
type Result struct {
	Title   string  `json:"title"`
	URL     string  `json:"url"`
	Snippet string  `json:"snippet"` // plain text
	Score   float64 `json:"score"`
	// Highlights are where the query's words occur in Snippet, as
	// [start, end] in code points, end exclusive, in order, apart.
	Highlights [][2]int `json:"highlights"`
}

// Page is a page of a search's results.
type Page struct {
	Results  []Result // the page's, best first
	Total    int      // documents that match, on every page
	Page     int      // the page's number, from 1
	Pages    int      // pages of Total results; 0 when none match
	Warnings []string // for the visitor: an index that could not be used
}

// Bounds of a search: an index is a folder a site maintains, but a CGI
// process must still answer fast.
const (
	maxDocBytes   = 4 << 20
	snippetRadius = 80 // bytes of text each side of the first match
	// DefaultPageSize is the results a page holds when the caller says 0.
	DefaultPageSize = 10
)

// Folder is a folder of documents to search. The zero value but Dir is
// the defaults.
type Folder struct {
	// Dir holds the documents: .txt and .html files, in subfolders too.
	Dir string
	// BaseURL is where the documents are served, a path ("/docs/") or an
	// absolute URL: a result's URL is BaseURL and the document's path,
	// each segment percent-encoded. A missing final slash is supplied.
	// Empty: the path alone, relative.
	BaseURL string
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

// Search gives page number page (from 1) of size results (0:
// DefaultPageSize) of the documents of f.Dir (.txt and .html,
// recursively, no symlinks followed below it) that match q (see
// ParseQuery). Text is folded with NFKC and Unicode full case folding
// (UAX #15, Unicode § 3.13, via x/text), so width and case do not matter:
// "ｲﾝｻﾂ" finds "インサツ", "STRASSE" finds "Straße". Results are ranked by
// the number of occurrences, each word's times its weight (a match in the
// title counts three times), ties by path, each folder's names in natural
// order (d2 before d10: walk). A page past the end is empty, with the total.
//
// f.Dir itself may be a symbolic link: it is resolved once, so that the
// index and the scan read the same folder (filepath.WalkDir does not
// follow a root that is a link).
//
// With an index built by Build (DIR/.cgigate-index) the search reads
// only the index, and gives what the scan would give for the documents as
// they were when it was built: the index is trusted, never compared with
// the documents' times (that would cost a stat of every document per
// request). Without one, every document is read. An index that cannot be
// used (corrupt, unreadable, another version) is logged and the documents
// are scanned, with a warning in the answer.
//
// A document that cannot be read is skipped: the scan logs it, Build
// reports it; a visitor never sees server file names. A missing or
// unreadable f.Dir is an error.
func (f *Folder) Search(q *Query, page, size int) (*Page, error) {
	if page < 1 {
		page = 1
	}
	if size <= 0 {
		size = DefaultPageSize
	}
	p := &Page{Results: []Result{}, Page: page}
	if q.empty() {
		return p, nil
	}
	dir, err := filepath.EvalSymlinks(f.Dir)
	if err != nil {
		return nil, fmt.Errorf("index %w", err)
	}
	from := maxInt / 2 // past any index, and room for size after it
	if page-1 < from/size {
		from = (page - 1) * size // which cannot overflow
	}
	hits, total, err := searchIndex(filepath.Join(dir, IndexName), q, from, size)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			// A broken index is the site's problem, not the client's: the
			// reason goes to Apache's error log, the answer is still a search.
			f.logf("cgigate: %v; searching the documents directly", err)
			p.Warnings = append(p.Warnings, "search index unusable (see the server log): the documents were searched directly")
		}
		var skips []string
		hits, total, skips, err = f.scan(dir, q, from, size)
		for _, s := range skips {
			f.logf("cgigate: %s", s)
		}
		if err != nil {
			return nil, err
		}
	}
	p.Total, p.Pages = total, (total+size-1)/size
	for _, h := range hits {
		h.Result.URL = f.docURL(h.rel)
		p.Results = append(p.Results, h.Result)
	}
	return p, nil
}

const maxInt = int(^uint(0) >> 1)

// hit is a result and the document's path.
type hit struct {
	Result
	rel string
}

// scan is the search without an index: it reads every document.
func (f *Folder) scan(dir string, q *Query, from, n int) (hits []hit, total int, skips []string, err error) {
	var m matcher
	skips, err = f.eachDoc(dir, func(rel, title, text string) error {
		if r, ok := m.match(title, text, q); ok {
			hits = append(hits, hit{r, rel})
		}
		return nil
	})
	if err != nil {
		return nil, 0, skips, err
	}
	// Documents come in walk order, the tie-break.
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[min(from, len(hits)):min(from+n, len(hits))], len(hits), skips, nil
}

// naturalCompare orders names as people count: runs of ASCII digits
// compare by value (d2 before d10), and the rest byte by byte; names
// equal so (d01, d1) fall back to their bytes.
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			x, y := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Compare(len(x), len(y)); c != 0 {
				return c
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(a[i], b[j]); c != 0 {
			return c
		}
		i, j = i+1, j+1
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// eachDoc calls fn with every searchable document of dir: .txt and .html
// files, recursively, no symlinks followed, in walk order (walk); title is
// the path relative to dir when the document has none. A document that
// cannot be read is skipped with a warning; a missing or unreadable dir is
// an error. The scan and the index builder both walk with it, so they see
// the same documents in the same order, the ranking's tie-break.
func (f *Folder) eachDoc(dir string, fn func(rel, title, text string) error) ([]string, error) {
	var warns []string
	err := walk(dir, "", func(r string, _ fs.DirEntry, err error) error {
		if w := skipWarning(r, err); w != "" {
			warns = append(warns, w)
			return nil
		}
		title, text, w := f.readWalked(dir, r)
		if w != "" {
			warns = append(warns, w)
			return nil
		}
		return fn(r, title, text)
	})
	if err != nil {
		return warns, fmt.Errorf("index %s: %w", dir, err)
	}
	return warns, nil
}

// skipWarning says why document r, as walk gives it with err, is left out
// before it is read, or "". The scan and the index builder skip alike.
func skipWarning(r string, err error) string {
	switch {
	case err != nil:
		return fmt.Sprintf("index: %s skipped: %v", r, err)
	case strings.Contains(r, `\`):
		// Legal in a Linux name, but an index holding one is refused
		// (docPathValid): the scan leaves it out as well.
		return fmt.Sprintf("index: %s skipped: a backslash in its name", r)
	}
	return ""
}

// readWalked reads document r of dir, titled by its path when it has no
// title of its own; a document that cannot be read gives a warning.
func (f *Folder) readWalked(dir, r string) (title, text, warn string) {
	title, text, err := f.readDoc(filepath.Join(dir, filepath.FromSlash(r)))
	if err != nil {
		return "", "", fmt.Sprintf("index: %s skipped: %v", r, err)
	}
	if title == "" {
		title = r
	}
	return title, text, ""
}

// walk calls fn with the directory entry and the path (slash-separated, relative to root) of every
// regular file of root/sub with a document's name, recursively, without
// following symbolic links, the names of each folder in natural order
// (naturalCompare: d2 before d10), a folder's files and subfolders among
// each other by name. A folder below root that cannot be read is given to
// fn with its error; root's own error is walk's.
func walk(root, sub string, fn func(rel string, e fs.DirEntry, err error) error) error {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(sub)))
	if err != nil {
		if sub == "" {
			return err
		}
		return fn(sub, nil, err)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return naturalCompare(a.Name(), b.Name()) })
	for _, e := range entries {
		r := e.Name()
		if sub != "" {
			r = sub + "/" + r
		}
		switch {
		case e.IsDir():
			err = walk(root, r, fn)
		case e.Type().IsRegular() && isDocName(r):
			err = fn(r, e, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
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

// docURL is a relative URL for a document's path. A first segment with a
// ':' would read as a scheme ("javascript:x.txt"), so it gets "./" (RFC
// 3986 § 4.2).
func docURL(rel string) string {
	return relURL(rel, true)
}

// docURL is the URL of the document at rel: BaseURL and its escaped
// path, or the path alone (docURL) without a BaseURL.
func (f *Folder) docURL(rel string) string {
	if f.BaseURL == "" {
		return docURL(rel)
	}
	return strings.TrimSuffix(f.BaseURL, "/") + "/" + relURL(rel, false)
}

// relURL is rel with each segment percent-encoded, dotted when asked and
// its first segment would read as a scheme.
func relURL(rel string, dotted bool) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.Join(segs, "/")
	if dotted && strings.Contains(segs[0], ":") {
		u = "./" + u
	}
	return u
}

// readDoc returns a document's title and text, read in its charset
// (decodeDoc).
func (f *Folder) readDoc(path string) (title, text string, err error) {
	if docRead != nil {
		docRead(path)
	}
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
		return firstLine(text), text, nil
	}
	return htmlText([]byte(text))
}

// docRead, when set (by tests), is told of every document read.
var docRead func(path string)

// match scores a document: it matches when q does (Query.matches), its
// score is the sum over the needles of their weight times their count (a
// count in the title thrice). The index calls it too, for the documents it
// shows.
func match(title, text string, q *Query) (Result, bool) {
	var m matcher
	return m.match(title, text, q)
}

// matcher matches documents one after another in the same memory: the
// foldings of the last document's title and text, which no Result keeps.
type matcher struct {
	title, text   foldBuf
	snippet, body foldBuf // a snippet, and the text between its ellipses
}

// match is match(title, text, q), its foldings in m's memory. The Result
// shares no memory with text, which may be a record's bytes in an index's
// mapping.
func (m *matcher) match(title, text string, q *Query) (Result, bool) {
	ft, fb := m.title.fold(title), m.text.fold(text)
	score := 0
	first := -1
	has := make([]bool, len(q.needles))
	for i, n := range q.needles {
		c := 3*strings.Count(ft.text, n.word) + strings.Count(fb.text, n.word)
		has[i] = c > 0
		score += n.weight * c
		if n.weight > 0 {
			if j := strings.Index(fb.text, n.word); j >= 0 && (first < 0 || j < first) {
				first = j
			}
		}
	}
	phrase := func(it item) bool { return q.phraseIn(ft.text, it) || q.phraseIn(fb.text, it) }
	if !q.matches(func(i int) bool { return has[i] }, phrase) {
		return Result{}, false
	}
	r := Result{Title: title, Score: float64(score)}
	at := 0
	if first >= 0 {
		at = fb.origOffset(first)
	}
	r.Snippet = snippet(text, at)
	r.Highlights = q.highlights(m.snippet.foldSnippet(r.Snippet, &m.body), r.Snippet)
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
	// Built afresh, never a piece of text, which may be in a mapping.
	var s strings.Builder
	s.Grow(hi - lo + 2*len(ellipsis))
	if lo > 0 {
		s.WriteString(ellipsis)
	}
	sep := ""
	for w := range strings.FieldsFuncSeq(text[lo:hi], unicode.IsSpace) {
		s.WriteString(sep)
		s.WriteString(w)
		sep = " "
	}
	if hi < len(text) {
		s.WriteString(ellipsis)
	}
	return s.String()
}

// highlights are the stretches of s where a word the query asks for
// occurs, found in f, its folding, and mapped back, as code point
// offsets; overlapping ones are merged.
func (q *Query) highlights(f folded, s string) [][2]int {
	var spans [][2]int // byte offsets in s
	for _, n := range q.needles {
		if n.weight == 0 {
			continue
		}
		for off := 0; ; {
			i := strings.Index(f.text[off:], n.word)
			if i < 0 {
				break
			}
			start, end := off+i, off+i+len(n.word)
			spans = append(spans, [2]int{f.origOffset(start), f.origEnd(end, len(s))})
			off = end
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	out := [][2]int{}
	for _, sp := range spans {
		if sp[1] <= sp[0] {
			continue
		}
		if n := len(out); n > 0 && sp[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	// Byte offsets to code points, in one pass: the spans are in order.
	pos, runes := 0, 0
	toRunes := func(b int) int {
		runes += utf8.RuneCountInString(s[pos:b])
		pos = b
		return runes
	}
	for i := range out {
		out[i] = [2]int{toRunes(out[i][0]), toRunes(out[i][1])}
	}
	return out
}

// ellipsis marks where snippet cut the text; foldedEllipsis is its
// folding (NFKC makes it three full stops), one segment that maps to its
// start.
const (
	ellipsis       = "…"
	foldedEllipsis = "..."
)

// foldSnippet is fold(s) for a snippet, in w's memory (body's holds the
// text between the ellipses): its ellipses are folded without x/text.
// NFKC decomposes U+2026, and the first decomposition a process meets
// makes x/text build its table of compositions (37 KB, about a tenth of a
// search's page faults), which an ASCII text never needs. Folding is
// context-free at a normalization boundary, and there is one before an
// ellipsis and before a character that is a starter and combines with
// nothing before it (norm.Properties.BoundaryBefore): the folding of s is
// then the ellipses' and the rest's put side by side, and so is its map.
// Where the rest begins otherwise (a combining mark right after the cut),
// s is folded whole; so it is when the rest is not UTF-8 (a crafted
// index's record), whose stray bytes norm.Iter cuts one way at the end of
// its input and another before an ellipsis.
func (w *foldBuf) foldSnippet(s string, body *foldBuf) folded {
	rest, lead := strings.CutPrefix(s, ellipsis)
	rest, trail := strings.CutSuffix(rest, ellipsis)
	if !lead && !trail || lead && rest != "" && rest[0] >= utf8.RuneSelf && !startsSegment(rest) || !utf8.ValidString(rest) {
		return w.fold(s)
	}
	fr := body.fold(rest)
	b, spans := w.b[:0], w.spans[:0]
	shift := 0 // of the rest, in s and in the folding: 3 bytes either way
	if lead {
		b = append(b, foldedEllipsis...)
		spans = append(spans, span{})
		shift = len(ellipsis)
	}
	b = append(b, fr.text...)
	for _, sp := range fr.spans {
		spans = append(spans, span{start: sp.start + int32(shift), orig: sp.orig + int32(shift), run: sp.run})
	}
	if trail {
		spans = append(spans, span{start: int32(shift + len(fr.text)), orig: int32(shift + len(rest))})
		b = append(b, foldedEllipsis...)
	}
	w.b, w.spans = b, spans
	return folded{text: unsafe.String(unsafe.SliceData(b), len(b)), spans: spans}
}

// Part is a piece of a snippet, marked when a word of the query is in it.
type Part struct {
	Text string
	Mark bool
}

// Parts cuts the snippet at its highlights, for a rendering that marks
// them (HTML's <mark>). The parts are pieces of the snippet, not copies.
func (r Result) Parts() []Part {
	s := r.Snippet
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // each byte that is no code point a U+FFFD, as counted
	}
	n := utf8.RuneCountInString(s)
	// Code points to byte offsets, walking s once: the highlights kept
	// are in order.
	pos, runes := 0, 0
	byteAt := func(cp int) int {
		for ; runes < cp; runes++ {
			_, size := utf8.DecodeRuneInString(s[pos:])
			pos += size
		}
		return pos
	}
	parts := make([]Part, 0, 2*len(r.Highlights)+1)
	at, atByte := 0, 0
	for _, h := range r.Highlights {
		if h[0] < at || h[1] > n || h[0] >= h[1] {
			continue // not Result's own: ignored rather than cut wrong
		}
		lo, hi := byteAt(h[0]), byteAt(h[1])
		if lo > atByte {
			parts = append(parts, Part{Text: s[atByte:lo]})
		}
		parts = append(parts, Part{Text: s[lo:hi], Mark: true})
		at, atByte = h[1], hi
	}
	if at < n {
		parts = append(parts, Part{Text: s[atByte:]})
	}
	return parts
}

// maxTitle is the longest title a text file's first line makes, in bytes.
const maxTitle = 200

// firstLine is a text file's title: its first line that is not blank,
// white space collapsed, cut to maxTitle bytes at a rune boundary.
func firstLine(text string) string {
	for line := range strings.Lines(text) {
		if t := strings.Join(strings.Fields(line), " "); t != "" {
			if len(t) > maxTitle {
				cut := maxTitle
				for cut > 0 && !utf8.RuneStart(t[cut]) {
					cut--
				}
				t = t[:cut] + "…"
			}
			return t
		}
	}
	return ""
}
