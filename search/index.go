package search

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// The search index: a manifest, DIR/.cgigate-index, names the live
// segments, each a file DIR/.cgigate-index.GEN.seg, and the stat table the
// next update starts from (DIR/.cgigate-index.GEN.stat, read only by the
// builder; manifest.go). A CGI process lives for one request, so a segment
// is laid out to be read in place: the process maps the file and reads a
// fixed header, then the gram lists of the query's words (gram.go), the
// terms they point at, the posting lists of the terms that hold the words
// and the records of the documents it shows. Nothing it touches grows
// with the collection but what matches.
//
// Segment layout (integers little-endian):
//
//	header     magic "CGIGIX\x00\x06", docs uint32, terms uint32, then for each
//	           section (dict, terms, doctab, keys, deleted, postings, docs,
//	           dictidx, grams, gramlists, bigrams, bigramlists)
//	           offset uint64, length uint64, CRC-32C uint32; then the
//	           CRC-32C of the header before it
//	docs       one record a document, in walk order: path, title, text, each
//	           a uvarint length and its UTF-8 bytes (the text as extracted,
//	           not folded: snippets are cut from it)
//	postings   for each term: its posting list, (document number delta,
//	           count in the text, count in the title) as uvarints, by
//	           document number; then its positions: a uvarint length,
//	           CRC-32C uint32 of the term then the positions, and for
//	           each posting in turn the term's ordinal positions in the
//	           text, then in the title (the n-th term of each, from 0),
//	           as uvarints, each field's first as is and the rest as
//	           deltas; the posting's counts say how many
//	dict       every folded term, each followed by '\n', in byte order
//	terms      for each term: postings offset uint64 (in the postings
//	           section), length uint32, CRC-32C uint32 of the term then
//	           the list
//	dictidx    for each term: its offset in dict, uint64
//	doctab     for each document, in walk order (the natural order of
//	           paths, digits by value: naturalCompare, folder by folder;
//	           the document number is its place here): record offset
//	           uint64 (in the docs section), length uint32, CRC-32C uint32
//	keys       empty in the main segment, where document d's key is
//	           mainKey(d); in a small one each document's key, uint64
//	deleted    the keys, uint64, of the earlier segments' documents this
//	           one replaces or removes; empty in the main segment
//	grams      for each gram (a code point or two neighbouring ones of a
//	           term; gramKey), in key order: key uint64, list offset
//	           uint64 (in gramlists), length uint32, CRC-32C uint32 of the
//	           key then the list
//	gramlists  for each gram: the ids of the terms holding it, rising, as
//	           uvarint deltas
//	bigrams    for each CJK bigram (two neighbouring code points of a term,
//	           both isCJK), in key order (gramKey): key uint64, list offset
//	           uint64 (in bigramlists), length uint32, CRC-32C uint32 of
//	           the key then the list
//	bigramlists for each bigram: a uvarint length and its posting list,
//	           (document number delta, count in the text, count in the
//	           title) as uvarints, by document number; then for each
//	           posting in turn the bigram's numbers in the text, then in
//	           the title, as the positions of a term are (the first as is,
//	           the rest as deltas)
//
// A document's key is its place in the walk order of the whole index:
// ties in rank are broken by key. The main segment's documents are spaced
// 2^32 apart; an update gives an added document a key between its
// neighbours' and a changed one keeps its key (update.go).
//
// A term is a maximal run of folded text without white space
// (unicode.IsSpace). A keyword without white space occurs in a folded text
// exactly where it occurs in one of its terms, so the substring match of
// the scan is a substring search in the dictionary (through the grams),
// and a document's score
// is the sum over the terms that contain the keyword of its occurrences in
// the term times the term's counts.
//
// A document's CJK bigrams are numbered in each field from 0, in order:
// the bigrams of one run of CJK code points inside a term are consecutive
// numbers, and a break (a code point that is not CJK, the end of a term)
// skips one. A word of two or more CJK code points occurs at number p
// when its i-th bigram is at p+i, two occurrences overlap when they are
// less than its length apart, and its count in a document is found from
// its bigrams' lists alone (bigram.go), without the terms holding it: a
// Japanese sentence is a term of its own, so a word found in many
// sentences is one list a bigram rather than one a sentence. The bigrams
// are built with the postings, in the same runs, under keys no term can
// be (bigramMark), and parted from the terms when the runs are merged:
// the dictionary, the grams and the scan never see them.
//
// A phrase is decided from the positions (candidates): every term a
// phrase's match touches holds one of its words, so the terms holding
// its words, put back at their positions in a document, are the stretches
// of the text where a match can be. The positions of a term follow its
// posting list, outside the list's CRC: a query without a phrase reads
// and checks the lists alone, as before, and a phrase reads the positions
// of the terms holding its words only.
//
// Every block a query reads is checked, never the whole file: the header,
// and a small segment's keys and deleted keys, by their CRCs in the
// header; each gram list with its key, each term with its posting list
// and, apart, with its positions; each record by its doctab entry; every
// offset and length against its section (index.load). A mismatch is
// errCorruptIndex. The header's CRCs of the other sections are the
// builder's, for a check of the whole file.
const (
	IndexName   = ".cgigate-index"
	indexMagic  = "CGIGIX\x00\x06"
	nSections   = 12
	sectionSize = 8 + 8 + 4
	headerSize  = len(indexMagic) + 4 + 4 + nSections*sectionSize + 4
	entrySize   = 8 + 4 + 4 // terms and doctab entries
	gramSize    = 8 + 8 + 4 + 4
	keySize     = 8
)

// Sections, in the order of the header.
const (
	secDict = iota
	secTerms
	secDocTab
	secKeys
	secDeleted
	secPostings
	secDocs
	secDictIdx
	secGrams
	secGramLists
	secBigrams
	secBigramLists
)

// mainKey is the key of the main segment's document d.
func mainKey(d int) uint64 { return uint64(d+1) << 32 }

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

// Stats is what building or updating an index did.
type Stats struct {
	Path     string   // the manifest
	Segment  string   // the segment written; empty when nothing changed
	Full     bool     // every document was read: a rebuild or a merge
	Docs     int      // documents in the segment written
	Terms    int      // terms in the segment written
	Bytes    int64    // size of the segment written
	Live     int      // documents the index holds
	Read     int      // documents read
	Removed  int      // documents dropped from the index (removed, renamed, now unreadable)
	Segments int      // live segments
	Warnings []string // the documents skipped, as a scan would warn
}

type section struct {
	off, len uint64
	crc      uint32
}

// indexPosting is a document's counts for one term while building, and
// where its positions start in the run's arena (encoded as in the
// segment: its counts say how many). 16 bytes: a build holds millions.
type indexPosting struct {
	doc         uint32 // its number: walk order (the header's count is 32 bits)
	text, title uint32
	pos         uint32 // offset in the arena
}

// runPostings is how many postings a build holds in memory before it
// writes them out as a run: about 16 bytes each, with the map's and the
// slices' overhead about 64 MiB. runPositions bounds the arena of their
// positions (a long document may hold many occurrences a posting). Both
// variables for the tests, which make many runs of a few documents.
var (
	runPostings  = 2 << 20
	runPositions = 32 << 20
)

// postingFanIn is how many runs of postings a build reads at once: with
// more, they are merged postingFanIn at a time into longer runs, so that
// the files it holds open and their read buffers (256 KiB each) do not
// follow the number of documents. A variable for the tests.
var postingFanIn = 64

// docTerm is a term of the document being counted: its counts and its
// positions in the text and in the title, delta-coded as they come.
type docTerm struct {
	text, title         uint32
	lastText, lastTitle int
	textPos, titlePos   []byte
}

// docTerms counts the terms of one document at a time, reusing its
// memory from document to document.
type docTerms struct {
	at    map[string]int // term (or bigram key) to its place in terms
	terms []docTerm
	key   []byte // a bigram's key, reused
}

// add counts term t at ordinal position i of the text, or of the title.
func (c *docTerms) add(t string, i int, title bool) {
	j, ok := c.at[t]
	if !ok {
		j = c.place(t)
	}
	c.terms[j].add(i, title)
}

// addBytes is add for a key held in a buffer the caller reuses: it is
// copied only when new to the document.
func (c *docTerms) addBytes(t []byte, i int, title bool) {
	j, ok := c.at[string(t)] // no copy for a lookup
	if !ok {
		j = c.place(string(t))
	}
	c.terms[j].add(i, title)
}

// place gives t, new to the document, its place in c.terms.
func (c *docTerms) place(t string) int {
	j := len(c.at)
	c.at[t] = j
	if j < len(c.terms) {
		dt := &c.terms[j]
		*dt = docTerm{textPos: dt.textPos[:0], titlePos: dt.titlePos[:0]}
	} else {
		c.terms = append(c.terms, docTerm{})
	}
	return j
}

func (dt *docTerm) add(i int, title bool) {
	if title {
		dt.titlePos = binary.AppendUvarint(dt.titlePos, uint64(i-dt.lastTitle))
		dt.title++
		dt.lastTitle = i
	} else {
		dt.textPos = binary.AppendUvarint(dt.textPos, uint64(i-dt.lastText))
		dt.text++
		dt.lastText = i
	}
}

// count counts the terms of a document's folded text and title, each
// term's positions numbered from 0 in each, and their CJK bigrams under
// their keys (bigramKey), numbered from 0 in each (docTerms.bigrams).
func (c *docTerms) count(text, title string) {
	clear(c.at)
	c.field(text, false)
	c.field(title, true)
}

func (c *docTerms) field(s string, title bool) {
	i, n := 0, 0
	for t := range strings.FieldsFuncSeq(s, isTermSep) { // no slice of a term per word
		c.add(t, i, title)
		i++
		n = c.bigrams(t, n, title)
	}
}

// segDoc is a document of a segment being written: its number in the
// index's order (key) and what reading it gave.
type segDoc struct {
	rel, title, text string
	key              uint64
}

// writeSegment writes the segment file dir/name from the documents each
// gives, in walk order; main says it is the main segment, whose keys are
// implicit (mainKey), where a small one lists them. deleted are the keys
// of earlier segments' documents the segment replaces or removes. The
// file is synced; the manifest makes it live.
//
// Its memory is bounded whatever the number of documents but for their
// table (below): each document's record goes to the file as it is read;
// the postings are gathered in memory until they reach runPostings (after
// the document that passes it), then written out, sorted by term, as a run
// (a temporary file beside the index, closed until it is read); the runs
// are merged term by term into the postings section at the end, one
// term's list in memory at a time, and first into fewer, longer runs
// while there are more than postingFanIn. Documents are numbered in walk order, so a run's lists follow the
// previous run's and merging them is appending. The tables that grow with
// the terms (the dictionary, the term table, its index, the grams) go to
// temporary files as the merge gives the terms (spill.go, gram.go). What
// stays in memory is 16 bytes a document (the document table; 24 in a
// small segment, with its key).
func writeSegment(dir, name string, main bool, deleted []uint64, each func(fn func(segDoc) error) error) (st Stats, err error) {
	path := filepath.Join(dir, name)
	st.Segment = path
	seg, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return st, err
	}
	var runs []string // the runs' files, closed until the merge
	defer func() {
		for _, r := range runs {
			os.Remove(r)
		}
		if seg != nil {
			seg.Close()
			os.Remove(path)
		}
	}()
	w := &offsetWriter{bw: bufio.NewWriterSize(seg, 256<<10), off: int64(headerSize)}
	if _, err := seg.Seek(int64(headerSize), io.SeekStart); err != nil {
		return st, err
	}
	var doctab, keys []byte
	docs := 0
	postings := map[string][]indexPosting{}
	var arena []byte // the positions of the postings held
	held := 0
	counts := docTerms{at: map[string]int{}}
	var rec []byte
	flush := func() error {
		r, err := writeRun(dir, postings, arena)
		if r != "" {
			runs = append(runs, r)
		}
		clear(postings)
		arena = arena[:0]
		held = 0
		return err
	}
	err = each(func(d segDoc) error {
		rec = appendString(appendString(appendString(rec[:0], d.rel), d.title), d.text)
		doctab = binary.LittleEndian.AppendUint64(doctab, uint64(w.off-int64(headerSize)))
		doctab = binary.LittleEndian.AppendUint32(doctab, uint32(len(rec)))
		doctab = binary.LittleEndian.AppendUint32(doctab, checksum(rec))
		if !main {
			keys = binary.LittleEndian.AppendUint64(keys, d.key)
		}
		if err := w.write(rec); err != nil {
			return err
		}
		counts.count(fold(d.text).text, fold(d.title).text)
		for t, j := range counts.at {
			dt := &counts.terms[j]
			p := indexPosting{doc: uint32(docs), text: dt.text, title: dt.title, pos: uint32(len(arena))}
			arena = append(append(arena, dt.textPos...), dt.titlePos...)
			postings[t] = append(postings[t], p)
		}
		docs++
		if held += len(counts.at); held >= runPostings || len(arena) >= runPositions {
			return flush()
		}
		return nil
	})
	if err == nil && held > 0 {
		err = flush()
	}
	if err != nil {
		return st, err
	}
	var secs [nSections]section
	secs[secDocs] = section{off: uint64(headerSize), len: uint64(w.off - int64(headerSize))}

	// The postings section, merged from the runs; the tables that follow
	// the terms go to temporary files as the terms come (spill.go) and are
	// copied in their places after it.
	tmp := &tempFiles{dir: dir}
	defer tmp.removeAll()
	tt, err := newTermTables(tmp)
	if err != nil {
		return st, err
	}
	for len(runs) > postingFanIn && err == nil {
		runs, err = mergePass(dir, runs)
	}
	if err != nil {
		return st, err
	}
	bt, err := newBigramTables(tmp)
	if err != nil {
		return st, err
	}
	secs[secPostings].off = uint64(w.off)
	var block []byte
	err = mergeRuns(runs, func(term string, list, positions []byte, _ uint64) error {
		if isBigramKey(term) {
			return bt.add(term, list, positions)
		}
		if err := tt.add(term, uint64(w.off)-secs[secPostings].off, list); err != nil {
			return err
		}
		if err := w.write(list); err != nil {
			return err
		}
		block = binary.AppendUvarint(block[:0], uint64(len(positions)))
		block = binary.LittleEndian.AppendUint32(block, termChecksum(term, positions))
		if err := w.write(block); err != nil {
			return err
		}
		return w.write(positions)
	})
	if err != nil {
		return st, err
	}
	terms := tt.terms
	secs[secPostings].len = uint64(w.off) - secs[secPostings].off
	var del []byte
	for _, k := range deleted {
		del = binary.LittleEndian.AppendUint64(del, k)
	}
	// In the order of the file: each section spilled (s) or held (b).
	for _, p := range [...]struct {
		i int
		s *spill
		b []byte
	}{{secDict, tt.dict, nil}, {secTerms, tt.table, nil}, {secDocTab, nil, doctab}, {secKeys, nil, keys}, {secDeleted, nil, del}, {secDictIdx, tt.dictIdx, nil}} {
		var err error
		if p.s != nil {
			secs[p.i], err = p.s.copyTo(w)
		} else {
			secs[p.i] = section{off: uint64(w.off), len: uint64(len(p.b)), crc: checksum(p.b)}
			err = w.write(p.b)
		}
		if err != nil {
			return st, err
		}
	}
	var lists *spill
	if secs[secGrams], lists, err = tt.grams.write(w); err != nil {
		return st, err
	}
	if secs[secGramLists], err = lists.copyTo(w); err != nil {
		return st, err
	}
	if secs[secBigrams], err = bt.table.copyTo(w); err != nil {
		return st, err
	}
	if secs[secBigramLists], err = bt.lists.copyTo(w); err != nil {
		return st, err
	}
	if err := w.bw.Flush(); err != nil {
		return st, err
	}
	hdr := encodeHeader(docs, terms, secs)
	if _, err := seg.WriteAt(hdr, 0); err != nil {
		return st, err
	}
	if err := seg.Chmod(0o644); err != nil { // read by the CGI's user, whatever the umask
		return st, err
	}
	if err := seg.Sync(); err != nil {
		return st, err
	}
	if err := seg.Close(); err != nil {
		return st, err
	}
	seg = nil
	st.Docs, st.Terms, st.Bytes = docs, terms, w.off
	return st, nil
}

// writeRun writes postings to a new temporary file in dir, by term in
// byte order: for each term its length and bytes, then its list's length
// and the list (doc number delta, count in text, count in title, as
// uvarints, the first delta from 0), its positions' length and positions
// (from arena, in the order of the list), then its last document number.
// It gives the file's name, closed, also with an error.
func writeRun(dir string, postings map[string][]indexPosting, arena []byte) (string, error) {
	f, err := os.CreateTemp(dir, IndexName+"-*.run")
	if err != nil {
		return "", err
	}
	defer f.Close()
	terms := make([]string, 0, len(postings))
	for t := range postings {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	bw := bufio.NewWriterSize(f, 1<<20)
	var b, list, pos []byte
	for _, t := range terms {
		ps := postings[t]
		list = encodeList(list[:0], ps, 0)
		pos = pos[:0]
		for _, p := range ps {
			n, _ := uvarintsLen(arena[p.pos:], uint64(p.text)+uint64(p.title))
			pos = append(pos, arena[p.pos:int(p.pos)+n]...)
		}
		b = appendRunEntry(b[:0], t, list, pos, uint64(ps[len(ps)-1].doc))
		if _, err := bw.Write(b); err != nil {
			return f.Name(), err
		}
	}
	if err := bw.Flush(); err != nil {
		return f.Name(), err
	}
	return f.Name(), f.Close()
}

// appendRunEntry appends a term's entry in a run (writeRun) to b.
func appendRunEntry(b []byte, term string, list, pos []byte, last uint64) []byte {
	b = appendString(b, term)
	b = append(binary.AppendUvarint(b, uint64(len(list))), list...)
	b = append(binary.AppendUvarint(b, uint64(len(pos))), pos...)
	return binary.AppendUvarint(b, last)
}

// mergePass merges runs, at most postingFanIn at a time and no more
// than it takes to leave postingFanIn, into runs of the same form, in
// order, and removes them: it gives the runs now holding the postings,
// with an error too, for the caller to remove. A pass merges each run
// once at most: the caller passes again while there are too many.
func mergePass(dir string, runs []string) ([]string, error) {
	var out []string
	for len(runs) > 1 && len(out)+len(runs) > postingFanIn {
		n := min(postingFanIn, len(runs), len(out)+len(runs)-postingFanIn+1)
		name, err := mergeIntoRun(dir, runs[:n])
		if name != "" {
			out = append(out, name)
		}
		if err != nil {
			return append(out, runs...), err
		}
		for _, r := range runs[:n] {
			os.Remove(r)
		}
		runs = runs[n:]
	}
	return append(out, runs...), nil
}

// mergeIntoRun merges runs into a new one, and gives its name, closed,
// also with an error.
func mergeIntoRun(dir string, runs []string) (string, error) {
	f, err := os.CreateTemp(dir, IndexName+"-*.run")
	if err != nil {
		return "", err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	var b []byte
	err = mergeRuns(runs, func(term string, list, pos []byte, last uint64) error {
		b = appendRunEntry(b[:0], term, list, pos, last)
		_, err := bw.Write(b)
		return err
	})
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Close()
	}
	return f.Name(), err
}

// encodeList appends the posting list of ps (by document number) to b,
// its first delta from prev.
func encodeList(b []byte, ps []indexPosting, prev int) []byte {
	for _, p := range ps {
		b = binary.AppendUvarint(b, uint64(int(p.doc)-prev))
		b = binary.AppendUvarint(b, uint64(p.text))
		b = binary.AppendUvarint(b, uint64(p.title))
		prev = int(p.doc)
	}
	return b
}

// runReader reads a run's entries in order.
type runReader struct {
	r         *bufio.Reader
	term      string
	list, pos []byte
	last      uint64
	err       error // io.EOF at the end
}

func (r *runReader) next() {
	var t []byte
	if t, r.err = r.bytes(); r.err != nil {
		return
	}
	if r.list, r.err = r.bytes(); r.err != nil {
		return
	}
	if r.pos, r.err = r.bytes(); r.err != nil {
		return
	}
	r.term = string(t)
	r.last, r.err = binary.ReadUvarint(r.r)
}

// bytes reads a uvarint length and as many bytes.
func (r *runReader) bytes() ([]byte, error) {
	n, err := binary.ReadUvarint(r.r)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r.r, b)
	return b, err
}

// mergeRuns calls fn with every term of the runs (files named) in byte
// order, its whole posting list, its positions and its last document:
// the runs' lists for the term, in run order (their documents rise from
// run to run), each first delta made relative to the previous list's
// last document, and their positions one after another.
func mergeRuns(runs []string, fn func(term string, list, positions []byte, last uint64) error) error {
	rs := make([]*runReader, len(runs))
	for i, name := range runs {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		rs[i] = &runReader{r: bufio.NewReaderSize(f, 256<<10)}
		rs[i].next()
	}
	var list, pos []byte
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
		list, pos = list[:0], pos[:0]
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
			pos = append(pos, r.pos...)
			prev, first = r.last, false
			r.next()
		}
		if err := fn(term, list, pos, prev); err != nil {
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

// offsetWriter writes sequentially, buffered (a record a document, a
// posting list and its positions a term: one write each would be a
// system call each), and knows where it is.
type offsetWriter struct {
	bw  *bufio.Writer
	off int64
}

func (w *offsetWriter) write(b []byte) error {
	n, err := w.bw.Write(b)
	w.off += int64(n)
	return err
}
