package search

import (
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
	doc         int // walk order while building
	text, title uint32
}

// Build writes the folder's index file: it walks dir as a search does
// (eachDoc), folds each title and text with fold, the function the query's
// words go through, and writes the file to a temporary name in dir, synced,
// then renamed over the old one, so that a CGI process opening it meanwhile
// sees either the old index or the new one, never a part (rename(2) is
// atomic within a file system).
//
// dir may be a symbolic link: it is resolved once, as search does.
func (f *Folder) Build() (Stats, error) {
	dir := f.Dir
	path := filepath.Join(dir, IndexName)
	st := Stats{Path: path}
	fail := func(err error) (Stats, error) { return st, &indexError{Op: "build", Path: path, Err: err} }
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fail(err)
	}
	tmp, err := os.CreateTemp(dir, IndexName+"-*.tmp")
	if err != nil {
		return fail(err)
	}
	defer func() {
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := &offsetWriter{f: tmp, off: int64(headerSize)}
	if _, err := tmp.Seek(int64(headerSize), io.SeekStart); err != nil {
		return fail(err)
	}
	type doc struct {
		rel string
		ent [entrySize]byte
	}
	var docs []doc
	postings := map[string][]indexPosting{}
	counts := map[string]*indexPosting{}
	var rec []byte
	warns, err := f.eachDoc(dir, func(rel, title, text string) error {
		rec = appendString(appendString(appendString(rec[:0], rel), title), text)
		var d doc
		d.rel = rel
		binary.LittleEndian.PutUint64(d.ent[0:], uint64(w.off-int64(headerSize)))
		binary.LittleEndian.PutUint32(d.ent[8:], uint32(len(rec)))
		binary.LittleEndian.PutUint32(d.ent[12:], checksum(rec))
		if err := w.write(rec); err != nil {
			return err
		}
		clear(counts)
		count := func(t string) *indexPosting {
			p := counts[t]
			if p == nil {
				p = &indexPosting{doc: len(docs)}
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
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		return fail(err)
	}
	st.Warnings = warns
	docsSec := section{off: uint64(headerSize), len: uint64(w.off - int64(headerSize))}

	// Documents are numbered in the natural order of their paths, the
	// ranking's tie-break; posting lists by number.
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return naturalCompare(docs[order[a]].rel, docs[order[b]].rel) < 0 })
	number := make([]int, len(docs))
	doctab := make([]byte, 0, len(docs)*entrySize)
	for n, i := range order {
		number[i] = n
		doctab = append(doctab, docs[i].ent[:]...)
	}
	terms := make([]string, 0, len(postings))
	for t := range postings {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	var dict, table, post, list []byte
	for _, t := range terms {
		dict = append(append(dict, t...), '\n')
		ps := postings[t]
		for i := range ps {
			ps[i].doc = number[ps[i].doc]
		}
		sort.Slice(ps, func(a, b int) bool { return ps[a].doc < ps[b].doc })
		list = list[:0]
		prev := 0
		for _, p := range ps {
			list = binary.AppendUvarint(list, uint64(p.doc-prev))
			list = binary.AppendUvarint(list, uint64(p.text))
			list = binary.AppendUvarint(list, uint64(p.title))
			prev = p.doc
		}
		table = binary.LittleEndian.AppendUint64(table, uint64(len(post)))
		table = binary.LittleEndian.AppendUint32(table, uint32(len(list)))
		table = binary.LittleEndian.AppendUint32(table, checksum(list))
		post = append(post, list...)
	}
	warnSec := binary.AppendUvarint(nil, uint64(len(warns)))
	for _, s := range warns {
		warnSec = appendString(warnSec, s)
	}
	var secs [nSections]section
	secs[secDocs] = docsSec
	for i, b := range [...][]byte{secDict: dict, secTerms: table, secDocTab: doctab, secWarnings: warnSec, secPostings: post} {
		secs[i] = section{off: uint64(w.off), len: uint64(len(b))}
		if i != secPostings {
			secs[i].crc = checksum(b)
		}
		if err := w.write(b); err != nil {
			return fail(err)
		}
	}
	hdr := encodeHeader(len(docs), len(terms), secs)
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
	st.Docs, st.Terms, st.Bytes = len(docs), len(terms), w.off
	return st, nil
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
