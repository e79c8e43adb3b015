package search

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"unsafe"
)

// index is an open segment file (see index.go for the layout).
type index struct {
	data    []byte // the file, mapped read-only (mapcache.go)
	release func() // gives data back
	path    string
	docs    int
	nTerms  int
	secs    [nSections]section
	keys    []byte     // a small segment's keys; empty: the main one's (mainKey)
	deleted []uint64   // the earlier segments' keys this one drops
	cost    searchCost // of the searches so far

	// A segment mapped afresh by this open has none of its pages in the
	// process's page tables, and a CGI process, which answers one search,
	// would fault in a page of the document table and one or two of the
	// records for each document shown: a fault costs several times a
	// pread of the same bytes. Such a segment's file stays open and its
	// records are read with pread into rec, reused from one to the next;
	// a segment already mapped (a FastCGI process's) reads them in place.
	file  segFile
	pread bool
	rec   []byte
}

// searchCost is the work a search did in the index, counted for the tests
// that bound a query's cost.
type searchCost struct {
	lists     int // posting lists read (a term's or a bigram's)
	postings  int // posting entries decoded
	positions int // positions decoded, for phrases
	records   int // document records read and matched
	bytes     int // of the file read (touched in its mapping)
}

// errSegmentGone is a segment the manifest names that is not there: an
// update replaced the manifest after it was read and removed the segment.
var errSegmentGone = errors.New("a segment the manifest names is gone")

// errShortRead is a file shorter than the bytes its index names.
var errShortRead = errors.New("the file ends before the bytes it names")

// searchIndex answers a search from the index whose manifest is at path.
// An error that wraps fs.ErrNotExist means there is no index (the scan
// answers); any other means the index cannot be used.
func searchIndex(path string, q *Query, from, n int) ([]hit, int, error) {
	segs, err := openSegments(path)
	if err != nil {
		return nil, 0, err
	}
	defer closeSegments(segs)
	return searchMapped(segs, q, from, n)
}

// searchMapped is searchSegments, with a fault reading a mapping (a
// segment cut short under it: builds never change a segment, but a hand
// can) an errCorruptIndex rather than the end of the process.
func searchMapped(segs []*index, q *Query, from, n int) (hits []hit, total int, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			hits, total = nil, 0
			err = &indexError{Op: "read", Path: segs[0].path, Err: corrupt("a fault reading a segment: %v", r)}
		}
	}()
	return searchSegments(segs, q, from, n)
}

// openSegments reads the manifest at path and opens the segments it
// names, main first. A segment that is gone means a newer manifest is in
// place: it starts again from it, a few times.
func openSegments(path string) ([]*index, error) {
	for try := 0; ; try++ {
		segs, err := openManifest(path)
		if !errors.Is(err, errSegmentGone) || try == 3 {
			return segs, err
		}
	}
}

func openManifest(path string) ([]*index, error) {
	dir := filepath.Dir(path)
	m, err := readManifest(path)
	if errors.Is(err, fs.ErrNotExist) {
		dropUnnamed(dir, nil) // the index was removed: keep none of it mapped
	}
	if err != nil {
		return nil, &indexError{Op: "open", Path: path, Err: err}
	}
	live := make(map[string]bool, len(m.segs))
	for _, s := range m.segs {
		live[s.name] = true
	}
	dropUnnamed(dir, live)
	segs := make([]*index, 0, len(m.segs))
	for i, s := range m.segs {
		ix, err := openIndex(filepath.Join(dir, s.name))
		if err == nil && (ix.docs != s.docs || i > 0 && len(ix.keys) != ix.docs*keySize || i == 0 && (len(ix.keys) != 0 || len(ix.deleted) != 0)) {
			ix.close()
			err = &indexError{Op: "open", Path: ix.path, Err: corrupt("not the segment the manifest names")}
		}
		if errors.Is(err, fs.ErrNotExist) {
			err = &indexError{Op: "open", Path: filepath.Join(dir, s.name), Err: errSegmentGone}
		}
		if err != nil {
			closeSegments(segs)
			return nil, err
		}
		segs = append(segs, ix)
	}
	return segs, nil
}

func closeSegments(segs []*index) {
	for _, ix := range segs {
		ix.close()
	}
}

func (ix *index) close() {
	if ix.pread {
		ix.file.close()
		ix.pread = false
	}
	if ix.release != nil {
		ix.release()
		ix.data, ix.release = nil, nil
	}
}

// openIndex maps a segment and checks its header; the rest is read, and
// checked, as a query needs it.
func openIndex(path string) (*index, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, &indexError{Op: "open", Path: path, Err: err}
	}
	ix := &index{path: path}
	made, err := ix.load(f)
	if err != nil {
		f.close()
		ix.close()
		return nil, &indexError{Op: "open", Path: path, Err: err}
	}
	if made {
		ix.file, ix.pread = f, true
	} else {
		f.close() // the mapping stays
	}
	return ix, nil
}

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errCorruptIndex, fmt.Sprintf(format, a...))
}

// load maps the file and reads its header, and a small segment's keys
// and deleted keys (as small as the update that wrote them), checked
// against their CRCs. Nothing else is read whole: every offset and length
// taken from the file is checked against its section's bounds as it is
// used (readAt), and each block a query reads carries its own CRC (a
// posting list with its term, a gram list with its key, a record with
// its document table entry). A changed byte in a table a query only
// searches (the dictionary's offsets, the grams' keys) can so lose or
// add a candidate, never read outside the file: every candidate's term
// is checked with its posting list, and every document shown is matched
// again. made tells whether the mapping was made by this load.
func (ix *index) load(f segFile) (made bool, err error) {
	id, err := f.identity()
	if err != nil {
		return false, err
	}
	size := id.fileSize()
	if size < int64(headerSize) {
		return false, corrupt("header: a file of %d bytes", size)
	}
	if size > math.MaxInt {
		return false, corrupt("a file of %d bytes", size)
	}
	if ix.data, ix.release, made, err = acquireMapping(ix.path, f, id); err != nil {
		return false, err
	}
	h := ix.data[:headerSize]
	ix.cost.bytes += headerSize
	if string(h[:len(indexMagic)]) != indexMagic {
		return false, corrupt("not a cgigate index of this version (magic %q)", h[:len(indexMagic)])
	}
	le := binary.LittleEndian
	if checksum(h[:headerSize-4]) != le.Uint32(h[headerSize-4:]) {
		return false, corrupt("header checksum")
	}
	p := h[len(indexMagic):]
	ix.docs = int(le.Uint32(p))
	ix.nTerms = int(le.Uint32(p[4:]))
	p = p[8:]
	for i := range ix.secs {
		s := section{off: le.Uint64(p), len: le.Uint64(p[8:]), crc: le.Uint32(p[16:])}
		if n := uint64(len(ix.data)); s.off > n || s.len > n-s.off {
			return false, corrupt("section %d beyond the end of the file", i)
		}
		ix.secs[i] = s
		p = p[sectionSize:]
	}
	if ix.secs[secTerms].len != uint64(ix.nTerms)*entrySize || ix.secs[secDocTab].len != uint64(ix.docs)*entrySize ||
		ix.secs[secDictIdx].len != uint64(ix.nTerms)*8 || ix.secs[secGrams].len%gramSize != 0 || ix.secs[secBigrams].len%gramSize != 0 ||
		ix.secs[secKeys].len != 0 && ix.secs[secKeys].len != uint64(ix.docs)*keySize || ix.secs[secDeleted].len%keySize != 0 {
		return false, corrupt("table sizes")
	}
	var parts [secDeleted + 1][]byte
	for _, i := range [...]int{secKeys, secDeleted} {
		b, err := ix.section(i)
		if err != nil {
			return false, err
		}
		if checksum(b) != ix.secs[i].crc {
			return false, corrupt("section %d checksum", i)
		}
		parts[i] = b
	}
	ix.keys = parts[secKeys]
	for d := parts[secDeleted]; len(d) > 0; d = d[keySize:] {
		ix.deleted = append(ix.deleted, binary.LittleEndian.Uint64(d))
	}
	return made, nil
}

// section reads section i whole.
func (ix *index) section(i int) ([]byte, error) {
	return ix.readAt(ix.secs[i], 0, ix.secs[i].len)
}

// readAt gives the n bytes at off inside section s, in the mapping: the
// caller must not keep them past close, nor change them.
func (ix *index) readAt(s section, off, n uint64) ([]byte, error) {
	if err := within(s, off, n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	ix.cost.bytes += int(n)
	return ix.data[s.off+off : s.off+off+n : s.off+off+n], nil
}

// within checks that the n bytes at off lie inside section s.
func within(s section, off, n uint64) error {
	if off > s.len || n > s.len-off {
		return corrupt("offset %d+%d outside its section", off, n)
	}
	return nil
}

// preadAt is readAt read with pread into b, or into a new buffer of
// twice b's room if it is too small: the bytes live as long as the
// buffer is not read into again.
func (ix *index) preadAt(s section, off, n uint64, b []byte) ([]byte, error) {
	if err := within(s, off, n); err != nil {
		return nil, err
	}
	if uint64(cap(b)) < n {
		b = make([]byte, n, max(n, 2*uint64(cap(b))))
	}
	b = b[:n]
	if err := ix.file.readAt(b, int64(s.off+off)); err != nil {
		return nil, corrupt("reading %d bytes at %d: %v", n, s.off+off, err)
	}
	ix.cost.bytes += int(n)
	return b, nil
}

// entry reads entry i of the terms or doctab table (tab) and the bytes it
// points to in section s, checked against the entry's CRC, which covers
// prefix then the bytes (a term's posting list covers the term).
func (ix *index) entry(tab, i int, s section, prefix []byte) ([]byte, error) {
	e, err := ix.readAt(ix.secs[tab], uint64(i)*entrySize, entrySize)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	b, err := ix.readAt(s, le.Uint64(e), uint64(le.Uint32(e[8:])))
	if err != nil {
		return nil, err
	}
	if crc32Update(checksum(prefix), b) != le.Uint32(e[12:]) {
		return nil, corrupt("entry %d checksum", i)
	}
	return b, nil
}

// term is term i of the dictionary, through the dictionary's offsets: its
// bytes in the mapping, not copied (a query may look at thousands).
func (ix *index) term(i int) ([]byte, error) {
	if i < 0 || i >= ix.nTerms {
		return nil, corrupt("term %d of %d", i, ix.nTerms)
	}
	d := ix.secs[secDict]
	e, err := ix.readAt(ix.secs[secDictIdx], uint64(i)*8, min(16, uint64(ix.nTerms-i)*8))
	if err != nil {
		return nil, err
	}
	start, end := binary.LittleEndian.Uint64(e), d.len
	if len(e) == 16 {
		end = binary.LittleEndian.Uint64(e[8:])
	}
	if start >= end || end > d.len {
		return nil, corrupt("dictionary offsets of term %d", i)
	}
	b, err := ix.readAt(d, start, end-start)
	if err != nil || b[len(b)-1] != '\n' {
		return nil, cmp.Or(err, corrupt("dictionary term %d", i))
	}
	return b[:len(b)-1], nil
}

// termsContaining calls fn with every term containing s, by id, its
// bytes, and how many times it holds s (bytes.Count: the scan's count): the candidates
// of the gram index (gram.go), each checked; for a keyword the gram index
// cannot look up, every term.
func (ix *index) termsContaining(s string, fn func(t int, term []byte, count int) error) error {
	ids, ok, err := ix.gramCandidates(s)
	if err != nil {
		return err
	}
	sb := []byte(s)
	check := func(t int) error {
		term, err := ix.term(t)
		if err != nil {
			return err
		}
		if c := bytes.Count(term, sb); c > 0 {
			return fn(t, term, c)
		}
		return nil
	}
	if !ok {
		for t := range ix.nTerms {
			if err := check(t); err != nil {
				return err
			}
		}
		return nil
	}
	for _, t := range ids {
		if err := check(t); err != nil {
			return err
		}
	}
	return nil
}

// positions reads the positions block of term t (index.go), which
// follows its posting list, and checks it against its CRC.
func (ix *index) positions(t int, term []byte) ([]byte, error) {
	e, err := ix.readAt(ix.secs[secTerms], uint64(t)*entrySize, entrySize)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	s := ix.secs[secPostings]
	off := le.Uint64(e) + uint64(le.Uint32(e[8:]))
	if off > s.len {
		return nil, corrupt("positions of %q outside their section", term)
	}
	h, err := ix.readAt(s, off, min(binary.MaxVarintLen64+4, s.len-off))
	if err != nil {
		return nil, err
	}
	n, k := binary.Uvarint(h)
	if k <= 0 || len(h) < k+4 {
		return nil, corrupt("positions of %q", term)
	}
	b, err := ix.readAt(s, off+uint64(k)+4, n)
	if err != nil {
		return nil, err
	}
	if crc32Update(checksum(term), b) != le.Uint32(h[k:]) {
		return nil, corrupt("positions of %q checksum", term)
	}
	return b, nil
}

// occurrence is a term at its ordinal position in a document's text or
// title (field 0 or 1).
type occurrence struct {
	field, pos int
	term       []byte
}

// termsAt are the terms a document holds at its positions.
type termsAt struct {
	term        []byte
	at          []byte // their positions, text then title
	text, title uint64 // how many of each
}

// stretchFree is how many bytes of stretches a document's positions put
// back before place checks them against its record: most phrases' never
// reach it, and read no document table entry.
const stretchFree = 4 << 10

// stretches are the stretches of a document's text and title where a
// phrase can be, put back from the positions of the terms holding its
// words; their memory is reused from document to document.
type stretches struct {
	runs []string // each as the text holds it: its terms joined by a space, in buf
	buf  []byte
	occ  []occurrence
	ends []int
}

// place puts the terms of ts back at their positions in a document and
// makes s.runs the stretches of consecutive positions in one field,
// valid until the next place. The stretches of a document's folded text
// and title are parts of them, so past stretchFree bytes, place asks
// limit for their most (from the document's record) and finds more a
// corrupt index, whose positions (a byte each) would otherwise make a
// term's length times as much. Every term a phrase's match touches holds
// one of the phrase's words (Query.phraseIn: the first word ends in its
// first term, each later word starts a term or joins the word before
// inside one), so when ts holds every term holding a word of the phrase,
// the phrase is in the text if and only if it is in one of the stretches.
func (s *stretches) place(ix *index, ts []termsAt, limit func() (int, error)) error {
	s.occ = s.occ[:0]
	for _, t := range ts {
		ok := eachPosition(t.at, [2]uint64{t.text, t.title}, func(field, pos int) {
			s.occ = append(s.occ, occurrence{field, pos, t.term})
		})
		if !ok {
			return corrupt("positions of %q", t.term)
		}
		ix.cost.positions += int(t.text + t.title)
	}
	slices.SortFunc(s.occ, func(a, b occurrence) int {
		return cmp.Or(cmp.Compare(a.field, b.field), cmp.Compare(a.pos, b.pos))
	})
	s.buf, s.ends = s.buf[:0], s.ends[:0]
	most, asked := stretchFree, false
	for i, o := range s.occ {
		if i > 0 {
			switch p := s.occ[i-1]; {
			case p.field == o.field && p.pos == o.pos:
				return corrupt("two terms at position %d", o.pos)
			case p.field == o.field && p.pos+1 == o.pos:
				s.buf = append(s.buf, ' ')
			default:
				s.ends = append(s.ends, len(s.buf))
			}
		}
		if len(s.buf)+len(o.term) > most && !asked {
			var err error
			if most, err = limit(); err != nil {
				return err
			}
			asked = true
		}
		if len(s.buf)+len(o.term) > most {
			return corrupt("positions of %q beyond the text", o.term)
		}
		s.buf = append(s.buf, o.term...)
	}
	s.ends = append(s.ends, len(s.buf))
	// The stretches are cut from s.buf, not from a copy: every document
	// holding a phrase's words is placed, and a string each would fault
	// in fresh pages over thousands of them. They live until the next
	// place.
	text := unsafe.String(unsafe.SliceData(s.buf), len(s.buf))
	s.runs = s.runs[:0]
	start := 0
	for _, e := range s.ends {
		s.runs = append(s.runs, text[start:e])
		start = e
	}
	return nil
}

// eachPosition decodes the positions of a posting (a term's, or a
// bigram's numbers), counts[0] in the text then counts[1] in the title,
// each field's first as is and the rest as deltas, and calls fn with
// each; false when b does not hold exactly as many, rising.
func eachPosition(b []byte, counts [2]uint64, fn func(field, pos int)) bool {
	r := reader{b: b}
	for field, n := range counts {
		pos := -1
		for i := range n {
			d := r.uvarint()
			if r.err != nil || d > math.MaxInt32 || i > 0 && d == 0 || uint64(pos+1)+d > math.MaxInt32 {
				return false
			}
			pos = max(pos, 0) + int(d)
			fn(field, pos)
		}
	}
	return len(r.b) == 0
}

// cand is a document of a segment that matches, by number, and its score.
type cand struct {
	doc, score int
}

// candidates adds to top each document of the segment that matches q, in
// number order, with its score, but those whose key is in dead. A
// needle (no white space: ParseQuery cuts at it) is looked up in the dictionary, and the posting
// lists give each document's score and the needles it holds without
// reading it: only the documents shown are read, for their title, URL and
// snippet, by match, the function the scan uses. A phrase is decided from
// the positions of the terms holding its words, put back in their places
// (stretches) and searched as the scan searches the text (phraseIn): a
// document's record is not read for it.
//
// Each posting list is read once, whatever number of needles its term
// holds: the term's weight (the sum of each needle's weight times its
// count in the term) and the set of needles it holds are worked out from
// the dictionary first. The lists, each in document order, are merged
// (a heap of their heads), so a document's score and needles are summed
// while it is at the heads, and nothing is kept per document of the
// segment: a query costs what its posting lists hold, in time and in
// memory touched (a table by document number would fault in a page for
// nearly every match). A query so decodes at most every posting entry
// once (and, for a phrase, the positions of the lists holding its words
// once), and reads at most n documents.
//
// The file is checked as it is read: a document number outside the
// table, a count that no build writes, a record whose path eachDoc would
// not give (a link off the site) are errCorruptIndex.
func (ix *index) candidates(q *Query, dead map[uint64]bool, top *topK) (err error) {
	needles := q.needles
	words := (len(needles) + 63) / 64 // of a bit set of needles
	// The needles of phrases, whose terms' positions are read.
	phraseWords := make([]uint64, words)
	for _, items := range append([][]item{q.none}, q.all...) {
		for _, it := range items {
			if !it.phrase {
				continue
			}
			for _, i := range it.words {
				phraseWords[i/64] |= 1 << (i % 64)
			}
		}
	}
	type termHit struct {
		term   []byte
		weight int
		has    []uint64
		phrase bool // holds a needle of a phrase
	}
	hits := map[int]*termHit{}
	// An all-CJK word that is no phrase's is counted from its bigrams'
	// lists (bigram.go), not from the terms holding it; a phrase's words
	// keep the terms, whose positions put its stretches back.
	bigramKeys := make([][]uint64, len(needles))
	for j, n := range needles {
		if phraseWords[j/64]&(1<<(j%64)) == 0 {
			bigramKeys[j] = wordBigrams(n.word)
		}
	}
	bw, err := ix.bigramWords(needles, bigramKeys)
	if err != nil {
		return err
	}
	for j, n := range needles {
		if bigramKeys[j] != nil {
			continue
		}
		err := ix.termsContaining(n.word, func(t int, term []byte, count int) error {
			h := hits[t]
			if h == nil {
				h = &termHit{term: term, has: make([]uint64, words)}
				hits[t] = h
			}
			h.weight += n.weight * count
			h.has[j/64] |= 1 << (j % 64)
			return nil
		})
		if err != nil {
			return err
		}
	}
	terms := make([]int, 0, len(hits))
	for t, h := range hits {
		terms = append(terms, t)
		for i, m := range h.has {
			h.phrase = h.phrase || m&phraseWords[i] != 0
		}
	}
	sort.Ints(terms) // read the postings section in order
	// A cursor is a posting list's next entry, a term's or a bigram's
	// (bl).
	type cursor struct {
		h     *termHit
		bl    *bigramList
		r     reader
		doc   int // of the entry at the head
		score int // its weight times its count
		first bool
		// For a term holding a phrase's word: its positions from the
		// head entry's on, and the head entry's.
		pos reader
		at  termsAt
	}
	// next moves c to its next entry; false at the end of the list.
	next := func(c *cursor) (bool, error) {
		if c.bl != nil {
			err := bw.step(c.bl)
			c.doc = c.bl.doc
			return !c.bl.done && err == nil, err
		}
		if len(c.r.b) == 0 {
			if len(c.pos.b) != 0 {
				return false, corrupt("positions of %q", c.h.term)
			}
			return false, nil
		}
		doc, text, title, ok := ix.postingEntry(&c.r, c.doc, c.first)
		if !ok {
			return false, corrupt("posting list of %q", c.h.term)
		}
		c.first = false
		c.doc = doc
		c.score = c.h.weight * int(text+3*title)
		if c.h.phrase {
			// Step over the entry's positions, decoded only for a
			// document that holds all a phrase's words.
			n, ok := uvarintsLen(c.pos.b, text+title)
			if !ok {
				return false, corrupt("positions of %q", c.h.term)
			}
			c.at = termsAt{term: c.h.term, at: c.pos.b[:n], text: text, title: title}
			c.pos.b = c.pos.b[n:]
		}
		return true, nil
	}
	heads := make([]*cursor, 0, len(terms)) // a min-heap by document
	down := func(i int) { siftDown(heads, i, func(a, b *cursor) bool { return a.doc < b.doc }) }
	cursors := make([]cursor, len(terms)+len(bw.lists))
	for i := range cursors {
		c := &cursors[i]
		if i >= len(terms) {
			*c = cursor{bl: bw.lists[i-len(terms)]}
		} else {
			t := terms[i]
			h := hits[t]
			list, err := ix.entry(secTerms, t, ix.secs[secPostings], h.term)
			if err != nil {
				return err
			}
			ix.cost.lists++
			*c = cursor{h: h, r: reader{b: list}, first: true}
			if h.phrase {
				if c.pos.b, err = ix.positions(t, h.term); err != nil {
					return err
				}
			}
		}
		ok, err := next(c)
		if err != nil {
			return err
		}
		if ok {
			heads = append(heads, c)
		}
	}
	for i := len(heads)/2 - 1; i >= 0; i-- {
		down(i)
	}
	row := make([]uint64, words) // the needles the document holds
	var (
		here    []termsAt // the terms holding a phrase's word the document holds
		counted []int     // the bigram words whose first bigram the document holds
		st      stretches
	)
	for len(heads) > 0 {
		// Every list holding document d is at its head now: a document
		// no list holds holds no needle, and matches nothing (every
		// query asks for at least one word: Query.matches).
		d, score := heads[0].doc, 0
		clear(row)
		here = here[:0]
		counted = counted[:0]
		for len(heads) > 0 && heads[0].doc == d {
			c := heads[0]
			if c.bl != nil {
				counted = append(counted, c.bl.take()...)
			} else {
				score += c.score
				if c.h.phrase {
					here = append(here, c.at)
				}
				for i, m := range c.h.has {
					row[i] |= m
				}
			}
			ok, err := next(c)
			if err != nil {
				return err
			}
			if !ok {
				heads[0] = heads[len(heads)-1]
				heads = heads[:len(heads)-1]
			}
			down(0)
		}
		if len(dead) > 0 && dead[ix.key(d)] {
			continue // replaced or removed: not even read for a phrase
		}
		for _, w := range counted {
			text, title, err := bw.count(w, d)
			if err != nil {
				return err
			}
			if j := bw.words[w].needle; text+title > 0 {
				score += needles[j].weight * (text + 3*title)
				row[j/64] |= 1 << (j % 64)
			}
		}
		placed := false // st holds the document's stretches
		phrase := func(it item) bool {
			if err != nil {
				return false
			}
			if !placed {
				if err = st.place(ix, here, func() (int, error) { return ix.foldedMost(d) }); err != nil {
					return false
				}
				placed = true
			}
			for _, r := range st.runs {
				if q.phraseIn(r, it) {
					return true
				}
			}
			return false
		}
		if q.matches(func(i int) bool { return row[i/64]&(1<<(i%64)) != 0 }, phrase) {
			top.add(cand{d, score})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// postingEntry reads the next entry of a posting list, a term's or a
// bigram's, from r: the document, after doc (or doc itself for the first
// entry), and the counts in the text and in the title; ok is false when
// the entry is torn, its document does not rise or leaves the table, or
// its counts are none or more than any build writes.
func (ix *index) postingEntry(r *reader, doc int, first bool) (next int, text, title uint64, ok bool) {
	delta, text, title := r.uvarint(), r.uvarint(), r.uvarint()
	if r.err != nil || delta >= uint64(ix.docs-doc) || !first && delta == 0 || text > math.MaxUint32 || title > math.MaxUint32 || text+title == 0 {
		return 0, 0, 0, false
	}
	ix.cost.postings++
	return doc + int(delta), text, title, true
}

// foldedMost is the most document d's folded text and title can hold:
// maxFoldGrowth times its record, which its doctab entry must place
// inside the records' section (the record itself, and so its CRC, is not
// read).
func (ix *index) foldedMost(d int) (int, error) {
	e, err := ix.readAt(ix.secs[secDocTab], uint64(d)*entrySize, entrySize)
	if err != nil {
		return 0, err
	}
	off, n := binary.LittleEndian.Uint64(e), uint64(binary.LittleEndian.Uint32(e[8:]))
	if docs := ix.secs[secDocs]; off > docs.len || n > docs.len-off {
		return 0, corrupt("document %d outside its section", d)
	}
	return maxFoldGrowth * int(n), nil
}

// uvarintsLen is the length of the first n uvarints of b; false if b
// holds fewer.
func uvarintsLen(b []byte, n uint64) (int, bool) {
	for i, c := range b {
		if c < 0x80 {
			if n--; n == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// key is document d's key.
func (ix *index) key(d int) uint64 {
	if len(ix.keys) == 0 {
		return mainKey(d)
	}
	return binary.LittleEndian.Uint64(ix.keys[d*keySize:])
}

// searchSegments answers q from the live segments, main first: each
// gives the documents it holds that match, but those a later segment
// replaces or removes, ranked by score, ties by number (a segment's
// documents are numbered in key order); the segments' lists are merged by
// score and key (the walk order of the whole index) up to the page shown,
// and only the documents shown are read. No table of every match's key
// is made: a CGI process that allocates less runs no garbage collection.
func searchSegments(segs []*index, q *Query, from, n int) ([]hit, int, error) {
	lists := make([][]cand, len(segs))
	var dead map[uint64]bool // keys a later segment drops
	total := 0
	for s := len(segs) - 1; s >= 0; s-- {
		ix := segs[s]
		top := topK{k: from + n}
		if err := ix.candidates(q, dead, &top); err != nil {
			return nil, 0, &indexError{Op: "read", Path: ix.path, Err: err}
		}
		lists[s] = top.best()
		total += top.n
		if len(ix.deleted) > 0 && dead == nil {
			dead = map[uint64]bool{}
		}
		for _, k := range ix.deleted {
			dead[k] = true
		}
	}
	var (
		results []hit
		m       matcher
	)
	for i := 0; i < min(from+n, total); i++ {
		best := -1
		for s, l := range lists {
			if len(l) == 0 {
				continue
			}
			if best < 0 {
				best = s
				continue
			}
			a, b := l[0], lists[best][0]
			if a.score > b.score || a.score == b.score && segs[s].key(a.doc) < segs[best].key(b.doc) {
				best = s
			}
		}
		d, score := lists[best][0].doc, lists[best][0].score
		lists[best] = lists[best][1:]
		if i < from {
			continue
		}
		ix := segs[best]
		rel, title, text, err := ix.record(d)
		if err == nil {
			res, ok := m.match(title, text, q)
			if !ok || int(res.Score) != score {
				err = corrupt("document %d (%s) does not match its postings", d, rel)
			}
			results = append(results, hit{res, rel})
		}
		if err != nil {
			return nil, 0, &indexError{Op: "read", Path: ix.path, Err: err}
		}
	}
	return results, total, nil
}

// record reads document d's record: its path and title, copied, and its
// text in the mapping or the buffer of records read with pread, not
// copied (a search folds it, and cuts a snippet from it, and keeps
// nothing of it): the caller must not keep it past the next record, nor
// past close.
func (ix *index) record(d int) (rel, title, text string, err error) {
	ix.cost.records++
	var rec []byte
	if ix.pread {
		rec, err = ix.precord(d)
	} else {
		rec, err = ix.entry(secDocTab, d, ix.secs[secDocs], nil)
	}
	if err != nil {
		return "", "", "", err
	}
	r := reader{b: rec}
	rel, title, text = r.string(), r.string(), r.view()
	if r.err != nil || len(r.b) != 0 || !docPathValid(rel) {
		return "", "", "", corrupt("document %d", d)
	}
	return rel, title, text, nil
}

// precord is entry(secDocTab, d, secDocs, nil) read with pread: its
// bytes live until the next.
func (ix *index) precord(d int) ([]byte, error) {
	var e [entrySize]byte
	if _, err := ix.preadAt(ix.secs[secDocTab], uint64(d)*entrySize, entrySize, e[:]); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	b, err := ix.preadAt(ix.secs[secDocs], le.Uint64(e[:]), uint64(le.Uint32(e[8:])), ix.rec)
	if err != nil {
		return nil, err
	}
	ix.rec = b
	if checksum(b) != le.Uint32(e[12:]) {
		return nil, corrupt("entry %d checksum", d)
	}
	return b, nil
}

// reader decodes uvarints and length-prefixed strings, keeping the first
// error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errCorruptIndex
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) string() string {
	return string(r.bytes())
}

// view is the next string in r's bytes, not copied: it lives as long as
// they do, and unchanged only as long as they are.
func (r *reader) view() string {
	b := r.bytes()
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func (r *reader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errCorruptIndex
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

// topK keeps the k best of the candidates added in number order (every
// one if k < 0), best first: by score, ties by number, as a stable sort
// by score would give; and counts them all. Past k they are kept in a
// bounded heap, so a page near the top costs what its matches number
// times the log of the page's end, and memory for the page's end: a
// slice of every match, grown by doubling, faulted in and copied tens of
// pages in a CGI process for a word matching thousands of documents.
type topK struct {
	k    int
	heap []cand // once k are kept, heap[0] is the worst of them
	n    int    // candidates added
}

// better orders candidates best first.
func better(a, b cand) int {
	return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.doc, b.doc))
}

func (t *topK) add(c cand) {
	t.n++
	switch {
	case t.k < 0 || len(t.heap) < t.k:
		t.heap = append(t.heap, c)
		if len(t.heap) == t.k {
			for i := t.k/2 - 1; i >= 0; i-- {
				t.down(i)
			}
		}
	case t.k > 0 && c.score > t.heap[0].score:
		// The candidates come in rising number, so one that only ties
		// the worst kept is worse than it, and is left out.
		t.heap[0] = c
		t.down(0)
	}
}

// down moves heap[i] down to its place: the worse above.
func (t *topK) down(i int) {
	siftDown(t.heap, i, func(a, b cand) bool { return better(a, b) > 0 })
}

// siftDown moves h[i] down to its place in the heap h whose top is the
// first by first.
func siftDown[T any](h []T, i int, first func(a, b T) bool) {
	for {
		m := i
		if l := 2*i + 1; l < len(h) && first(h[l], h[m]) {
			m = l
		}
		if r := 2*i + 2; r < len(h) && first(h[r], h[m]) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// best is the candidates kept, best first.
func (t *topK) best() []cand {
	slices.SortFunc(t.heap, better)
	return t.heap
}
