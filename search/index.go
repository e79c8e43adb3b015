package search

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/cgigate/cgigate/internal/lazy"
)

// The search index: one file, DIR/.cgigate-index, written by
// "cgigate -index DIR" and read by every CGI process that searches DIR. A
// CGI process lives for one request, so the file is laid out to be read in
// place: the process reads a fixed header, the term dictionary and two
// tables (about 50 bytes a document in all), then only the posting lists
// of the terms a query hits and the records of the documents it shows.
//
// Layout (integers little-endian):
//
//	header     magic "CGIGIX\x00\x02", docs uint32, terms uint32, then for each
//	           section (dict, terms, doctab, warnings, postings, docs)
//	           offset uint64, length uint64, CRC-32C uint32; then the
//	           CRC-32C of the header before it
//	docs       one record a document, in walk order: path, title, text, each
//	           a uvarint length and its UTF-8 bytes (the text as extracted,
//	           not folded: snippets are cut from it)
//	dict       every folded term, each followed by '\n', in byte order
//	terms      for each term: postings offset uint64 (in the postings
//	           section), length uint32, CRC-32C uint32
//	doctab     for each document, in the natural order of paths (digits
//	           by value: naturalCompare; the document number is
//	           its place here, so ties in rank are broken by number): record
//	           offset uint64 (in the docs section), length uint32, CRC-32C
//	           uint32
//	warnings   uvarint count, then each a uvarint length and its bytes: the
//	           documents skipped when the index was built
//	postings   for each term: (document number delta, count in the text,
//	           count in the title) as uvarints, by document number
//
// A term is a maximal run of folded text without white space
// (unicode.IsSpace). A keyword without white space occurs in a folded text
// exactly where it occurs in one of its terms, so the substring match of
// the scan is a substring search in the dictionary, and a document's score
// is the sum over the terms that contain the keyword of its occurrences in
// the term times the term's counts.
//
// Every byte read is checked: the header, dict, terms, doctab and
// warnings by their CRCs in the header, each posting list and record by
// its own. A mismatch is errCorruptIndex.
const (
	IndexName   = ".cgigate-index"
	indexMagic  = "CGIGIX\x00\x02"
	nSections   = 6
	sectionSize = 8 + 8 + 4
	headerSize  = len(indexMagic) + 4 + 4 + nSections*sectionSize + 4
	entrySize   = 8 + 4 + 4 // terms and doctab entries
)

// Sections, in the order of the header.
const (
	secDict = iota
	secTerms
	secDocTab
	secWarnings
	secPostings
	secDocs
)

// castagnoli is made on first use: a CGI process that answers a form and
// never opens the index should not pay for the table at start-up.
var castagnoli = lazy.Value[*crc32.Table]{New: func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }}

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli.Get()) }

// isTermSep separates terms, in the index and in a keyword.
func isTermSep(r rune) bool { return unicode.IsSpace(r) }

// indexError is a failure to build or use an index file: Op is "build",
// "open" or "read", Path the file.
type indexError struct {
	Op, Path string
	Err      error
}

func (e *indexError) Error() string { return "index " + e.Op + " " + e.Path + ": " + e.Err.Error() }
func (e *indexError) Unwrap() error { return e.Err }

// errCorruptIndex is an index file whose bytes are not what was written.
var errCorruptIndex = errors.New("corrupt index file")

// Stats is what building an index wrote.
type Stats struct {
	Path     string
	Docs     int
	Terms    int
	Bytes    int64
	Warnings []string // the documents skipped, as a scan would warn
}

type section struct {
	off, len uint64
	crc      uint32
}

// indexPosting is a document's counts for one term while building.
type indexPosting struct {
	doc         int // its number: walk order
	text, title uint32
}

// runPostings is how many postings a build holds in memory before it
// writes them out as a run: about 16 bytes each, with the map's and the
// slices' overhead about 64 MiB. A variable for the tests, which make
// many runs of a few documents.
var runPostings = 2 << 20

// Build writes the folder's index file: it walks dir as a search does
// (eachDoc), folds each title and text with fold, the function the query's
// words go through, and writes the file to a temporary name in dir, synced,
// then renamed over the old one, so that a CGI process opening it meanwhile
// sees either the old index or the new one, never a part (rename(2) is
// atomic within a file system).
//
// Its memory is bounded whatever the number of documents: each document's
// record goes to the file as it is read; the postings are gathered in
// memory up to runPostings, then written out, sorted by term, as a run
// (a temporary file beside the index); the runs are merged term by term
// into the postings section at the end, one term's list in memory at a
// time. Documents are numbered in walk order, so a run's lists follow the
// previous run's and merging them is appending. What stays in memory is
// 16 bytes a document (the document table) and the dictionary.
//
// dir may be a symbolic link: it is resolved once, as search does.
func (f *Folder) Build() (Stats, error) {
	path := filepath.Join(f.Dir, IndexName)
	st := Stats{Path: path}
	fail := func(err error) (Stats, error) { return st, &indexError{Op: "build", Path: path, Err: err} }
	dir, err := filepath.EvalSymlinks(f.Dir)
	if err != nil {
		return fail(err)
	}
	tmp, err := os.CreateTemp(dir, IndexName+"-*.tmp")
	if err != nil {
		return fail(err)
	}
	var runs []*os.File
	defer func() {
		for _, r := range runs {
			r.Close()
			os.Remove(r.Name())
		}
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := &offsetWriter{f: tmp, off: int64(headerSize)}
	if _, err := tmp.Seek(int64(headerSize), io.SeekStart); err != nil {
		return fail(err)
	}
	var doctab []byte
	docs := 0
	postings := map[string][]indexPosting{}
	held := 0
	counts := map[string]*indexPosting{}
	var rec []byte
	flush := func() error {
		r, err := writeRun(dir, postings)
		if r != nil {
			runs = append(runs, r)
		}
		clear(postings)
		held = 0
		return err
	}
	warns, err := f.eachDoc(dir, func(rel, title, text string) error {
		rec = appendString(appendString(appendString(rec[:0], rel), title), text)
		doctab = binary.LittleEndian.AppendUint64(doctab, uint64(w.off-int64(headerSize)))
		doctab = binary.LittleEndian.AppendUint32(doctab, uint32(len(rec)))
		doctab = binary.LittleEndian.AppendUint32(doctab, checksum(rec))
		if err := w.write(rec); err != nil {
			return err
		}
		clear(counts)
		count := func(t string) *indexPosting {
			p := counts[t]
			if p == nil {
				p = &indexPosting{doc: docs}
				counts[t] = p
			}
			return p
		}
		for t := range strings.FieldsFuncSeq(fold(text).text, isTermSep) { // no slice of a term per word
			count(t).text++
		}
		for t := range strings.FieldsFuncSeq(fold(title).text, isTermSep) {
			count(t).title++
		}
		for t, p := range counts {
			postings[t] = append(postings[t], *p)
		}
		docs++
		if held += len(counts); held >= runPostings {
			return flush()
		}
		return nil
	})
	if err == nil && held > 0 {
		err = flush()
	}
	if err != nil {
		return fail(err)
	}
	st.Warnings = warns
	var secs [nSections]section
	secs[secDocs] = section{off: uint64(headerSize), len: uint64(w.off - int64(headerSize))}

	// The postings section, merged from the runs, then the tables.
	secs[secPostings].off = uint64(w.off)
	var dict, table []byte
	terms := 0
	err = mergeRuns(runs, func(term string, list []byte) error {
		dict = append(append(dict, term...), '\n')
		table = binary.LittleEndian.AppendUint64(table, uint64(w.off)-secs[secPostings].off)
		table = binary.LittleEndian.AppendUint32(table, uint32(len(list)))
		table = binary.LittleEndian.AppendUint32(table, checksum(list))
		terms++
		return w.write(list)
	})
	if err != nil {
		return fail(err)
	}
	secs[secPostings].len = uint64(w.off) - secs[secPostings].off
	warnSec := binary.AppendUvarint(nil, uint64(len(warns)))
	for _, s := range warns {
		warnSec = appendString(warnSec, s)
	}
	for i, b := range [...][]byte{secDict: dict, secTerms: table, secDocTab: doctab, secWarnings: warnSec} {
		secs[i] = section{off: uint64(w.off), len: uint64(len(b)), crc: checksum(b)}
		if err := w.write(b); err != nil {
			return fail(err)
		}
	}
	hdr := encodeHeader(docs, terms, secs)
	if _, err := tmp.WriteAt(hdr, 0); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil { // read by the CGI's user
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(err)
	}
	tmp = nil
	if d, err := os.Open(dir); err == nil { // make the rename durable
		d.Sync()
		d.Close()
	}
	st.Docs, st.Terms, st.Bytes = docs, terms, w.off
	return st, nil
}

// writeRun writes postings to a new temporary file in dir, by term in
// byte order: for each term its length and bytes, then its list's length
// and the list (doc number delta, count in text, count in title, as
// uvarints, the first delta from 0), then its last document number.
func writeRun(dir string, postings map[string][]indexPosting) (*os.File, error) {
	f, err := os.CreateTemp(dir, IndexName+"-*.run")
	if err != nil {
		return nil, err
	}
	terms := make([]string, 0, len(postings))
	for t := range postings {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	bw := bufio.NewWriterSize(f, 1<<20)
	var b []byte
	for _, t := range terms {
		ps := postings[t]
		b = appendString(b[:0], t)
		list := encodeList(nil, ps, 0)
		b = appendString(b, string(list))
		b = binary.AppendUvarint(b, uint64(ps[len(ps)-1].doc))
		if _, err := bw.Write(b); err != nil {
			return f, err
		}
	}
	if err := bw.Flush(); err != nil {
		return f, err
	}
	_, err = f.Seek(0, io.SeekStart)
	return f, err
}

// encodeList appends the posting list of ps (by document number) to b,
// its first delta from prev.
func encodeList(b []byte, ps []indexPosting, prev int) []byte {
	for _, p := range ps {
		b = binary.AppendUvarint(b, uint64(p.doc-prev))
		b = binary.AppendUvarint(b, uint64(p.text))
		b = binary.AppendUvarint(b, uint64(p.title))
		prev = p.doc
	}
	return b
}

// runReader reads a run's entries in order.
type runReader struct {
	r    *bufio.Reader
	term string
	list []byte
	last uint64
	err  error // io.EOF at the end
}

func (r *runReader) next() {
	var n uint64
	if n, r.err = binary.ReadUvarint(r.r); r.err != nil {
		return
	}
	t := make([]byte, n)
	if _, r.err = io.ReadFull(r.r, t); r.err != nil {
		return
	}
	if n, r.err = binary.ReadUvarint(r.r); r.err != nil {
		return
	}
	r.list = make([]byte, n)
	if _, r.err = io.ReadFull(r.r, r.list); r.err != nil {
		return
	}
	r.term = string(t)
	r.last, r.err = binary.ReadUvarint(r.r)
}

// mergeRuns calls fn with every term of the runs in byte order and its
// whole posting list: the runs' lists for the term, in run order (their
// documents rise from run to run), each first delta made relative to the
// previous list's last document.
func mergeRuns(runs []*os.File, fn func(term string, list []byte) error) error {
	rs := make([]*runReader, len(runs))
	for i, f := range runs {
		rs[i] = &runReader{r: bufio.NewReaderSize(f, 256<<10)}
		rs[i].next()
	}
	var list []byte
	for {
		term, any := "", false
		for _, r := range rs {
			if r.err == nil && (!any || r.term < term) {
				term, any = r.term, true
			}
		}
		for _, r := range rs {
			if r.err != nil && r.err != io.EOF {
				return r.err
			}
		}
		if !any {
			return nil
		}
		list = list[:0]
		prev, first := uint64(0), true
		for _, r := range rs {
			if r.err != nil || r.term != term {
				continue
			}
			d, n := binary.Uvarint(r.list)
			if n <= 0 || !first && d <= prev {
				return errors.New("a run of the build is corrupt")
			}
			list = binary.AppendUvarint(list, d-prev)
			list = append(list, r.list[n:]...)
			prev, first = r.last, false
			r.next()
		}
		if err := fn(term, list); err != nil {
			return err
		}
	}
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func encodeHeader(docs, terms int, secs [nSections]section) []byte {
	h := make([]byte, 0, headerSize)
	h = append(h, indexMagic...)
	h = binary.LittleEndian.AppendUint32(h, uint32(docs))
	h = binary.LittleEndian.AppendUint32(h, uint32(terms))
	for _, s := range secs {
		h = binary.LittleEndian.AppendUint64(h, s.off)
		h = binary.LittleEndian.AppendUint64(h, s.len)
		h = binary.LittleEndian.AppendUint32(h, s.crc)
	}
	return binary.LittleEndian.AppendUint32(h, checksum(h))
}

// offsetWriter writes sequentially and knows where it is.
type offsetWriter struct {
	f   *os.File
	off int64
}

func (w *offsetWriter) write(b []byte) error {
	n, err := w.f.Write(b)
	w.off += int64(n)
	return err
}
