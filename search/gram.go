package search

import (
	"encoding/binary"
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
// rarest bigrams.

// gramKey is the key of the unigram r (r2 < 0) or of the bigram r, r2:
// the first code point in the high half, the second plus one in the low
// half (0 for a unigram), so a unigram sorts before its bigrams.
func gramKey(r, r2 rune) uint64 {
	return uint64(r)<<32 | uint64(r2+1)
}

// gramEntry is a key of the grams section and its list.
type gramEntry struct {
	key  uint64
	last int // the last term id appended
	list []byte
}

// gramIndex builds the grams and gram lists sections from the dictionary
// (each term followed by '\n', in id order). Its memory follows the
// dictionary's size: at most two keys a code point, a few bytes each.
func gramIndex(dict []byte) (grams, lists []byte) {
	byKey := map[uint64]*gramEntry{}
	add := func(key uint64, id int) {
		e := byKey[key]
		if e == nil {
			e = &gramEntry{key: key}
			byKey[key] = e
		} else if e.last == id && len(e.list) > 0 {
			return // already listed for this term
		}
		e.list = binary.AppendUvarint(e.list, uint64(id-e.last))
		e.last = id
	}
	id := 0
	for len(dict) > 0 {
		prev := rune(-1)
		for len(dict) > 0 && dict[0] != '\n' {
			r, n := utf8.DecodeRune(dict)
			dict = dict[n:]
			add(gramKey(r, -1), id)
			if prev >= 0 {
				add(gramKey(prev, r), id)
			}
			prev = r
		}
		dict = dict[1:]
		id++
	}
	keys := make([]*gramEntry, 0, len(byKey))
	for _, e := range byKey {
		keys = append(keys, e)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].key < keys[j].key })
	le := binary.LittleEndian
	grams = make([]byte, 0, len(keys)*gramSize)
	for _, e := range keys {
		grams = le.AppendUint64(grams, e.key)
		grams = le.AppendUint64(grams, uint64(len(lists)))
		grams = le.AppendUint32(grams, uint32(len(e.list)))
		grams = le.AppendUint32(grams, gramChecksum(e.key, e.list))
		lists = append(lists, e.list...)
	}
	return grams, lists
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
	g := ix.secs[secGrams]
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
	list, err := ix.readAt(ix.secs[secGramLists], le.Uint64(e[8:]), uint64(le.Uint32(e[16:])))
	if err != nil {
		return nil, err
	}
	if gramChecksum(key, list) != le.Uint32(e[20:]) {
		return nil, corrupt("gram %d checksum", i)
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
