package search

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"slices"
	"sort"
	"unicode/utf8"
)

// The gram index finds the terms that contain a keyword without reading
// the dictionary. Matching is a substring match on folded text (印刷 is
// found inside 活版印刷, "print" inside "printing"), and a Japanese
// sentence, unsegmented, is one term, so the dictionary grows with the
// text: a query that scanned it would cost the collection, not its
// matches.
//
// For every term, each code point (a unigram) and each pair of
// neighbouring code points (a bigram) is a key; the grams section lists
// the keys in order, each with the ids of the terms that hold it (in the
// gram lists section, rising, as uvarint deltas). A keyword of one code
// point reads its unigram's list; a longer one reads the lists of its
// bigrams, intersects the shortest few, and counts the keyword in each
// term left (strings.Count: the scan's count), which drops the terms
// whose bigrams are all there but not in the keyword's order. A keyword
// that is valid UTF-8 is a run of whole code points of any term it is in,
// invalid bytes and all (utf8.DecodeRune never takes a lead byte as a
// continuation), so its grams are among the term's: the lists miss no
// term. A keyword that is not valid UTF-8 scans the dictionary.
//
// Bigrams rather than cutting CJK runs into words when building: the
// terms, the postings and the scan stay what they were (the scan remains
// the independent check of the index), and a word is found inside any
// term, in any script, at a cost that follows the terms that hold its
// rarest bigrams. An all-CJK word, whose terms are sentences, is counted
// from CJK bigram postings instead (bigram.go), kept apart from the terms
// and the grams.

// gramKey is the key of the unigram r (r2 < 0) or of the bigram r, r2:
// the first code point in the high half, the second plus one in the low
// half (0 for a unigram), so a unigram sorts before its bigrams.
func gramKey(r, r2 rune) uint64 {
	return uint64(r)<<32 | uint64(r2+1)
}

// gramString is the text of the gram whose key is k (gramKey).
func gramString(k uint64) string {
	if r2 := rune(k&(1<<32-1)) - 1; r2 >= 0 {
		return string([]rune{rune(k >> 32), r2})
	}
	return string(rune(k >> 32))
}

// termGrams appends to keys the distinct keys of term's grams, in order.
func termGrams(keys []uint64, term string) []uint64 {
	prev := rune(-1)
	for _, r := range term { // an invalid byte is utf8.RuneError, one byte long
		keys = append(keys, gramKey(r, -1))
		if prev >= 0 {
			keys = append(keys, gramKey(prev, r))
		}
		prev = r
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// The grams and gram lists sections are built as the postings are, in
// memory bounded whatever the number of terms: the pairs (gram key, term
// id) of the terms, in id order, are gathered up to gramRunPairs, sorted
// and written out as a run (a temporary file beside the index); the runs
// are merged key by key at the end, a list streamed to the gram lists
// section as it is merged, never held whole. Term ids rise from run to
// run, so a key's list is its runs' lists one after the other, and runs
// next to each other merge into a run of the same kind: gramFanIn runs of
// a level merge into one of the next as they come, and at the end the
// last ones merge until gramFanIn are left, so the files open and their
// read buffers are bounded too.

// gramRunPairs is how many (gram key, term id) pairs a build holds before
// writing them out as a run: 8 bytes each, 16 MiB; a variable for the
// tests, as are gramFanIn and gramReadBuf.
var gramRunPairs = 2 << 20

var (
	gramFanIn   = 64
	gramReadBuf = 64 << 10
)

// A pair is packed in a uint64, so that a run is sorted as plain
// integers, in half the memory of a struct: the key's two code points, 21
// bits each (U+10FFFF, and U+10FFFF plus one, fit), then the term's id
// less the run's first, runIDBits: a run ends before it would need more,
// at runTerms terms (a variable for the tests).
const runIDBits = 22

var runTerms = 1 << runIDBits

func packPair(key uint64, rel int) uint64 {
	return key>>32<<43 | key&(1<<21-1)<<runIDBits | uint64(rel)
}

// pairKey is the key of a packed pair.
func pairKey(p uint64) uint64 { return p>>43<<32 | p>>runIDBits&(1<<21-1) }

// gramRuns gathers the grams of the terms, in id order, into runs.
type gramRuns struct {
	tmp   *tempFiles
	pairs []uint64 // packed (packPair)
	first int      // the term id the pairs held start at
	keys  []uint64 // the term's, reused
	runs  []gramRun
}

// gramRun is a run and its level: the number of merges that made it.
type gramRun struct {
	f     *os.File
	level int
}

func (g *gramRuns) add(term string, id int) error {
	g.keys = termGrams(g.keys[:0], term)
	need := len(g.pairs) + len(g.keys)
	if len(g.pairs) > 0 && (need > gramRunPairs || id-g.first >= runTerms) {
		if err := g.flush(); err != nil {
			return err
		}
		need = len(g.keys)
	}
	if len(g.pairs) == 0 {
		g.first = id
	}
	if need > cap(g.pairs) { // grown by hand: append's growth would pass the bound
		p := make([]uint64, len(g.pairs), max(need, min(2*cap(g.pairs), gramRunPairs)))
		copy(p, g.pairs)
		g.pairs = p
	}
	for _, k := range g.keys {
		g.pairs = append(g.pairs, packPair(k, id-g.first))
	}
	return nil
}

// flush writes the pairs held as a run, sorted by key then id: for each
// key, the key (a uvarint delta from the previous one), the number of its
// ids and the ids (uvarint deltas, the first from 0).
func (g *gramRuns) flush() error {
	if len(g.pairs) == 0 {
		return nil
	}
	slices.Sort(g.pairs)
	f, err := g.tmp.create()
	if err != nil {
		return err
	}
	g.runs = append(g.runs, gramRun{f: f})
	bw := bufio.NewWriterSize(f, gramReadBuf)
	var b []byte
	prevKey := uint64(0)
	for i := 0; i < len(g.pairs); {
		k := pairKey(g.pairs[i])
		j := i
		for j < len(g.pairs) && g.pairs[j]>>runIDBits == g.pairs[i]>>runIDBits {
			j++
		}
		b = binary.AppendUvarint(b[:0], k-prevKey)
		b = binary.AppendUvarint(b, uint64(j-i))
		prevID := uint64(0)
		for _, p := range g.pairs[i:j] {
			id := uint64(g.first) + p&(1<<runIDBits-1)
			b = binary.AppendUvarint(b, id-prevID)
			prevID = id
		}
		if _, err := bw.Write(b); err != nil {
			return err
		}
		prevKey, i = k, j
	}
	g.pairs = g.pairs[:0]
	if err := bw.Flush(); err != nil {
		return err
	}
	if _, err = f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	for {
		n := len(g.runs)
		i := n - 1
		for i > 0 && g.runs[i-1].level == g.runs[n-1].level {
			i--
		}
		if n-i < gramFanIn {
			return nil
		}
		if err := g.mergeLast(n - i); err != nil {
			return err
		}
	}
}

// mergeLast merges the last n runs into one.
func (g *gramRuns) mergeLast(n int) error {
	last := g.runs[len(g.runs)-n:]
	files := make([]*os.File, n)
	level := 0
	for i, r := range last {
		files[i], level = r.f, max(level, r.level+1)
	}
	f, err := g.mergeInto(files)
	if err != nil {
		return err
	}
	for _, r := range files {
		g.tmp.remove(r)
	}
	g.runs = append(g.runs[:len(g.runs)-n], gramRun{f: f, level: level})
	return nil
}

// gramRunReader reads a run: key and n, the ids of the key not yet read.
type gramRunReader struct {
	r      *bufio.Reader
	key, n uint64
	id     uint64 // the last read
	eof    bool
}

// nextKey moves to the next key, once its ids are read.
func (r *gramRunReader) nextKey() error {
	d, err := binary.ReadUvarint(r.r)
	if err == io.EOF {
		r.eof = true
		return nil
	}
	if err == nil {
		r.n, err = binary.ReadUvarint(r.r)
	}
	if err != nil || r.n == 0 {
		return errCorruptRun
	}
	r.key += d
	r.id = 0
	return nil
}

var errCorruptRun = errors.New("a run of the build is corrupt")

// mergeGramRuns merges runs, whose ids rise from run to run: for each key
// in order, key(k, n) with its number of ids, then id(x) for each id,
// rising.
func mergeGramRuns(runs []*os.File, key func(k, n uint64) error, id func(x uint64) error) error {
	rs := make([]*gramRunReader, len(runs))
	for i, f := range runs {
		rs[i] = &gramRunReader{r: bufio.NewReaderSize(f, gramReadBuf)}
		if err := rs[i].nextKey(); err != nil {
			return err
		}
	}
	for {
		k, n, any := uint64(0), uint64(0), false
		for _, r := range rs {
			if !r.eof && (!any || r.key < k) {
				k, any = r.key, true
			}
		}
		if !any {
			return nil
		}
		for _, r := range rs {
			if !r.eof && r.key == k {
				n += r.n
			}
		}
		if err := key(k, n); err != nil {
			return err
		}
		last, first := uint64(0), true
		for _, r := range rs {
			if r.eof || r.key != k {
				continue
			}
			for ; r.n > 0; r.n-- {
				d, err := binary.ReadUvarint(r.r)
				if err != nil || !first && r.id+d <= last { // ids rise within a key, across the runs too
					return errCorruptRun
				}
				r.id += d
				last, first = r.id, false
				if err := id(r.id); err != nil {
					return err
				}
			}
			if err := r.nextKey(); err != nil {
				return err
			}
		}
	}
}

// mergeInto merges runs into one new run of the same form.
func (g *gramRuns) mergeInto(runs []*os.File) (*os.File, error) {
	f, err := g.tmp.create()
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(f, gramReadBuf)
	var b []byte
	prevKey, prevID := uint64(0), uint64(0)
	put := func(b []byte) error { _, err := bw.Write(b); return err }
	err = mergeGramRuns(runs, func(k, n uint64) error {
		b = binary.AppendUvarint(b[:0], k-prevKey)
		prevKey, prevID = k, 0
		return put(binary.AppendUvarint(b, n))
	}, func(x uint64) error {
		b = binary.AppendUvarint(b[:0], x-prevID)
		prevID = x
		return put(b)
	})
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	return f, err
}

// write writes the grams section to w, in its place in the segment, and
// the gram lists section to a spill, copied after it.
func (g *gramRuns) write(w *offsetWriter) (grams section, lists *spill, err error) {
	if err := g.flush(); err != nil {
		return grams, nil, err
	}
	g.pairs, g.keys = nil, nil
	for len(g.runs) > gramFanIn {
		if err := g.mergeLast(gramFanIn); err != nil {
			return grams, nil, err
		}
	}
	if lists, err = newSpill(g.tmp); err != nil {
		return grams, nil, err
	}
	le := binary.LittleEndian
	grams = section{off: uint64(w.off)}
	var (
		b         []byte
		key, prev uint64
		off       uint64
		crc       uint32
		open      bool
	)
	// entry ends the entry of the key before.
	entry := func() error {
		if !open {
			return nil
		}
		e := le.AppendUint64(b[:0], key)
		e = le.AppendUint64(e, off)
		e = le.AppendUint32(e, uint32(lists.len-off))
		e = le.AppendUint32(e, crc)
		grams.crc = crc32Update(grams.crc, e)
		grams.len += uint64(len(e))
		return w.write(e) // buffered
	}
	files := make([]*os.File, len(g.runs))
	for i, r := range g.runs {
		files[i] = r.f
	}
	err = mergeGramRuns(files, func(k, _ uint64) error {
		if err := entry(); err != nil {
			return err
		}
		key, prev, off, open = k, 0, lists.len, true
		crc = checksum(le.AppendUint64(b[:0], k))
		return nil
	}, func(x uint64) error {
		b = binary.AppendUvarint(b[:0], x-prev)
		prev = x
		crc = crc32Update(crc, b)
		return lists.write(b)
	})
	if err == nil {
		err = entry()
	}
	return grams, lists, err
}

// gramChecksum covers a gram's key and its list: a list read under
// another key is caught as a changed one.
func gramChecksum(key uint64, list []byte) uint32 {
	return crc32Update(checksum(binary.LittleEndian.AppendUint64(nil, key)), list)
}

// termChecksum covers a term's posting list and the term: a query reads
// a term's bytes from the dictionary only with its list, and the CRC
// checks both.
func termChecksum(term string, list []byte) uint32 {
	return crc32Update(checksum([]byte(term)), list)
}

// keywordGrams are the keys whose lists hold every term containing s:
// its unigram for one code point, its distinct bigrams for more. ok is
// false when s is not valid UTF-8 or empty.
func keywordGrams(s string) (keys []uint64, ok bool) {
	if s == "" || !utf8.ValidString(s) {
		return nil, false
	}
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			keys = append(keys, gramKey(prev, r))
		}
		prev = r
	}
	if keys == nil {
		return []uint64{gramKey(prev, -1)}, true
	}
	slices.Sort(keys)
	return slices.Compact(keys), true
}

// gramList finds key in the grams section by binary search and returns
// its list, checked against its CRC; nil when no term holds it.
func (ix *index) gramList(key uint64) ([]byte, error) {
	return ix.keyedList(secGrams, secGramLists, key)
}

// keyedList finds key in the table tab (grams or bigrams: entries of
// gramSize, by key) by binary search and returns its list in section
// lists, checked against its CRC; nil when the table has no such key.
func (ix *index) keyedList(tab, lists int, key uint64) ([]byte, error) {
	g := ix.secs[tab]
	n := int(g.len / gramSize)
	le := binary.LittleEndian
	var err error
	i := sort.Search(n, func(i int) bool {
		e, e2 := ix.readAt(g, uint64(i)*gramSize, gramSize)
		if e2 != nil {
			err = e2
			return true
		}
		return le.Uint64(e) >= key
	})
	if err != nil || i == n {
		return nil, err
	}
	e, err := ix.readAt(g, uint64(i)*gramSize, gramSize)
	if err != nil || le.Uint64(e) != key {
		return nil, err
	}
	list, err := ix.readAt(ix.secs[lists], le.Uint64(e[8:]), uint64(le.Uint32(e[16:])))
	if err != nil {
		return nil, err
	}
	if gramChecksum(key, list) != le.Uint32(e[20:]) {
		return nil, corrupt("table %d entry %d checksum", tab, i)
	}
	return list, nil
}

// decodeTermIDs decodes a gram list: term ids, rising, each below terms.
func decodeTermIDs(list []byte, terms int) ([]int, error) {
	var ids []int
	r := reader{b: list}
	for id, first := 0, true; len(r.b) > 0; first = false {
		d := r.uvarint()
		if r.err != nil || d >= uint64(terms-id) || !first && d == 0 {
			return nil, corrupt("gram list")
		}
		id += int(d)
		ids = append(ids, id)
	}
	return ids, nil
}

// intersect keeps the ids of a (rising) that are in b (rising).
func intersect(a, b []int) []int {
	out := a[:0]
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			out = append(out, x)
		}
	}
	return out
}

// gramCandidates are the ids of the terms that may contain s, rising, from
// the gram index; ok is false when the gram index cannot answer (s is not
// valid UTF-8) and the dictionary must be scanned.
func (ix *index) gramCandidates(s string) (ids []int, ok bool, err error) {
	keys, ok := keywordGrams(s)
	if !ok {
		return nil, false, nil
	}
	lists := make([][]byte, len(keys))
	for i, k := range keys {
		if lists[i], err = ix.gramList(k); err != nil {
			return nil, true, err
		}
		if len(lists[i]) == 0 {
			return nil, true, nil // a gram no term holds
		}
	}
	// The shortest lists narrow the most; the count in each term left
	// checks the rest, so a long keyword reads only a few lists.
	slices.SortFunc(lists, func(a, b []byte) int { return len(a) - len(b) })
	const maxLists = 3
	for i, l := range lists[:min(len(lists), maxLists)] {
		got, err := decodeTermIDs(l, ix.nTerms)
		if err != nil {
			return nil, true, err
		}
		if i == 0 {
			ids = got
		} else {
			ids = intersect(ids, got)
		}
		if len(ids) == 0 {
			break
		}
	}
	return ids, true, nil
}
