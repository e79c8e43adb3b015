package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"syscall"
)

// index is an open index file (see index.go for the layout).
type index struct {
	f      *os.File
	path   string
	docs   int
	secs   [nSections]section
	dict   string
	starts []int // dict offset of each term, and len(dict) last
	terms  []byte
	doctab []byte
	warns  []string
}

// searchIndex answers a search from the index file at path. An error that
// wraps fs.ErrNotExist means there is no index (the scan answers); any
// other means the index cannot be used.
func searchIndex(path string, needles []string) ([]searchResult, []string, error) {
	ix, err := openIndex(path)
	if err != nil {
		return nil, nil, err
	}
	defer ix.f.Close()
	results, err := ix.search(needles)
	if err != nil {
		return nil, nil, &indexError{Op: "read", Path: path, Err: err}
	}
	return results, ix.warns, nil
}

// openIndex reads the header and the parts every query needs, checking
// each against its CRC.
func openIndex(path string) (*index, error) {
	f, err := os.Open(path)
	if errors.Is(err, syscall.ENOTDIR) { // the folder is a file: no index in it
		err = &os.PathError{Op: "open", Path: path, Err: os.ErrNotExist}
	}
	if err != nil {
		return nil, &indexError{Op: "open", Path: path, Err: err}
	}
	ix := &index{f: f, path: path}
	if err := ix.load(); err != nil {
		f.Close()
		return nil, &indexError{Op: "open", Path: path, Err: err}
	}
	return ix, nil
}

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errCorruptIndex, fmt.Sprintf(format, a...))
}

func (ix *index) load() error {
	fi, err := ix.f.Stat()
	if err != nil {
		return err
	}
	size := uint64(fi.Size())
	h := make([]byte, headerSize)
	if _, err := ix.f.ReadAt(h, 0); err != nil {
		return corrupt("header: %v", err)
	}
	if string(h[:len(indexMagic)]) != indexMagic {
		return corrupt("not a cgigate index of this version (magic %q)", h[:len(indexMagic)])
	}
	le := binary.LittleEndian
	if checksum(h[:headerSize-4]) != le.Uint32(h[headerSize-4:]) {
		return corrupt("header checksum")
	}
	p := h[len(indexMagic):]
	ix.docs = int(le.Uint32(p))
	nTerms := int(le.Uint32(p[4:]))
	p = p[8:]
	for i := range ix.secs {
		s := section{off: le.Uint64(p), len: le.Uint64(p[8:]), crc: le.Uint32(p[16:])}
		if s.off > size || s.len > size-s.off {
			return corrupt("section %d beyond the end of the file", i)
		}
		ix.secs[i] = s
		p = p[sectionSize:]
	}
	if ix.secs[secTerms].len != uint64(nTerms)*entrySize || ix.secs[secDocTab].len != uint64(ix.docs)*entrySize {
		return corrupt("table sizes")
	}
	var parts [secWarnings + 1][]byte
	for i := range parts {
		b, err := ix.section(i)
		if err != nil {
			return err
		}
		if checksum(b) != ix.secs[i].crc {
			return corrupt("section %d checksum", i)
		}
		parts[i] = b
	}
	ix.dict, ix.terms, ix.doctab = string(parts[secDict]), parts[secTerms], parts[secDocTab]
	ix.starts = make([]int, 0, nTerms+1)
	for off := 0; off < len(ix.dict); {
		ix.starts = append(ix.starts, off)
		i := strings.IndexByte(ix.dict[off:], '\n')
		if i < 0 {
			return corrupt("dictionary")
		}
		off += i + 1
	}
	if len(ix.starts) != nTerms {
		return corrupt("dictionary has %d terms, header %d", len(ix.starts), nTerms)
	}
	ix.starts = append(ix.starts, len(ix.dict))
	r := reader{b: parts[secWarnings]}
	n := r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		ix.warns = append(ix.warns, r.string())
	}
	if r.err != nil || len(r.b) != 0 {
		return corrupt("warnings")
	}
	return nil
}

// section reads section i whole.
func (ix *index) section(i int) ([]byte, error) {
	return ix.readAt(ix.secs[i], 0, ix.secs[i].len)
}

// readAt reads n bytes at off inside section s.
func (ix *index) readAt(s section, off, n uint64) ([]byte, error) {
	if off > s.len || n > s.len-off {
		return nil, corrupt("offset %d+%d outside its section", off, n)
	}
	b := make([]byte, n)
	if _, err := ix.f.ReadAt(b, int64(s.off+off)); err != nil {
		return nil, corrupt("read: %v", err)
	}
	return b, nil
}

// entry reads an entry of the terms or doctab table and the bytes it
// points to in section s, checked against the entry's CRC.
func (ix *index) entry(table []byte, i int, s section) ([]byte, error) {
	e := table[i*entrySize:]
	le := binary.LittleEndian
	b, err := ix.readAt(s, le.Uint64(e), uint64(le.Uint32(e[8:])))
	if err != nil {
		return nil, err
	}
	if checksum(b) != le.Uint32(e[12:]) {
		return nil, corrupt("entry %d checksum", i)
	}
	return b, nil
}

func (ix *index) term(i int) string { return ix.dict[ix.starts[i] : ix.starts[i+1]-1] }

// termsContaining calls fn with every term containing s, and how many
// times it does (strings.Count: the scan's count).
func (ix *index) termsContaining(s string, fn func(term, count int) error) error {
	for off := 0; off < len(ix.dict); {
		i := strings.Index(ix.dict[off:], s)
		if i < 0 {
			return nil
		}
		// s has no '\n', so the hit is inside one term.
		t := sort.SearchInts(ix.starts, off+i+1) - 1
		if err := fn(t, strings.Count(ix.term(t), s)); err != nil {
			return err
		}
		off = ix.starts[t+1]
	}
	return nil
}

// search finds the documents containing every needle (folded keywords).
// A needle without white space is looked up in the dictionary, and the
// posting lists give each document's score without reading it: only the
// documents shown are read, for their title, URL and snippet, by match,
// the function the scan uses. A needle with white space (a keyword that
// folds to one, as U+00A0 does under NFKC) spans terms: its pieces
// narrow the documents down, and match decides on each of them.
func (ix *index) search(needles []string) ([]searchResult, error) {
	var filters []string
	exact := true
	for _, n := range needles {
		if strings.ContainsFunc(n, isTermSep) {
			exact = false
			filters = append(filters, strings.FieldsFunc(n, isTermSep)...)
		} else {
			filters = append(filters, n)
		}
	}
	score := make([]int, ix.docs)
	seen := make([]int, ix.docs) // how many filters a document has passed
	for j, n := range filters {
		err := ix.termsContaining(n, func(t, count int) error {
			list, err := ix.entry(ix.terms, t, ix.secs[secPostings])
			if err != nil {
				return err
			}
			r := reader{b: list}
			doc := 0
			for len(r.b) > 0 && r.err == nil {
				doc += int(r.uvarint())
				text, title := r.uvarint(), r.uvarint()
				if r.err != nil || doc >= ix.docs {
					return corrupt("posting list of %q", ix.term(t))
				}
				if seen[doc] == j {
					seen[doc] = j + 1
				}
				if seen[doc] == j+1 {
					score[doc] += count * int(text+3*title)
				}
			}
			if r.err != nil {
				return corrupt("posting list of %q", ix.term(t))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	var cands []int
	for d := range ix.docs {
		if seen[d] == len(filters) {
			cands = append(cands, d)
		}
	}
	if exact {
		// Documents are numbered in URL order: the scan's tie-break.
		sort.SliceStable(cands, func(a, b int) bool { return score[cands[a]] > score[cands[b]] })
		if len(cands) > maxResults {
			cands = cands[:maxResults]
		}
	}
	var results []searchResult
	for _, d := range cands {
		rec, err := ix.entry(ix.doctab, d, ix.secs[secDocs])
		if err != nil {
			return nil, err
		}
		r := reader{b: rec}
		rel, title, text := r.string(), r.string(), r.string()
		if r.err != nil || len(r.b) != 0 {
			return nil, corrupt("document %d", d)
		}
		res, ok := match(title, text, needles)
		if exact && (!ok || int(res.Score) != score[d]) {
			return nil, corrupt("document %d (%s) does not match its postings", d, rel)
		}
		if ok {
			res.URL = docURL(rel)
			results = append(results, res)
		}
	}
	return rank(results), nil
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
	n := r.uvarint()
	if r.err != nil {
		return ""
	}
	if n > uint64(len(r.b)) {
		r.err = errCorruptIndex
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
