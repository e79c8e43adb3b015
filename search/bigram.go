package search

import (
	"encoding/binary"
	"errors"
	"math"
	"unicode/utf8"
)

// CJK bigram postings. A Japanese or Chinese sentence, unsegmented, is a
// term of its own, so a CJK word found in many sentences is held by as
// many terms, each with a short posting list somewhere else in the file:
// found through the grams, it would read one list a sentence. Its
// bigrams (pairs of neighbouring CJK code points) are few, and each has
// one posting list with the bigram's numbers in each document: a word of
// two or more CJK code points is found, and counted, from the lists of
// its bigrams alone.
//
// The count is the scan's (strings.Count of the word in the folded text,
// non-overlapping, left to right): a match of an all-CJK word lies inside
// one run of CJK code points of one term, where the numbers of
// neighbouring bigrams are consecutive, and a break between runs skips a
// number (docTerms.bigrams). The word occurs at p when its i-th bigram is
// at p+i; two occurrences overlap when they are less than its length in
// code points apart, never across a break; so the occurrences taken
// greedily from the left are strings.Count's.

// bigramMark starts a bigram's key among the terms of a build's runs: it
// is white space, which no term holds (isTermSep), so no term is a
// bigram's key, and the runs and their merge serve both; the merge parts
// them (writeSegment).
const bigramMark = "\n"

// isBigramKey tells a bigram's key from a term in a build's runs.
func isBigramKey(t string) bool { return len(t) > 0 && t[0] == bigramMark[0] }

// bigrams counts the CJK bigrams of term t, a term of the text or the
// title, numbering them from n; it gives the number the next term's
// first bigram takes: one more than t's last, and one more again when t
// ends a run of CJK bigrams, as every break inside t skips one.
func (c *docTerms) bigrams(t string, n int, title bool) int {
	prev, run := rune(-1), false
	for _, r := range t { // an invalid byte is utf8.RuneError, not CJK
		cjk := r >= 0x1100 && isCJK(r) // none below Hangul Jamo: most text is decided here
		if cjk && prev >= 0 {
			c.key = utf8.AppendRune(utf8.AppendRune(append(c.key[:0], bigramMark...), prev), r)
			c.addBytes(c.key, n, title)
			n++
			run = true
		} else if run {
			n++
			run = false
		}
		prev = -1
		if cjk {
			prev = r
		}
	}
	if run {
		n++
	}
	return n
}

// bigramOf is the gram key (gramKey) of a bigram's key in the runs.
func bigramOf(key string) (uint64, bool) {
	r, n := utf8.DecodeRuneInString(key[len(bigramMark):])
	r2, n2 := utf8.DecodeRuneInString(key[len(bigramMark)+n:])
	return gramKey(r, r2), len(bigramMark)+n+n2 == len(key) && r != utf8.RuneError && r2 != utf8.RuneError
}

// bigramTables are the bigrams and bigram lists sections, written to
// temporary files as the merge of the runs gives the bigrams, in key
// order (the byte order of their UTF-8 is the order of their code
// points), and copied into the segment after the grams.
type bigramTables struct {
	table, lists *spill
	b            []byte
}

func newBigramTables(tmp *tempFiles) (*bigramTables, error) {
	t := &bigramTables{}
	for _, s := range []**spill{&t.table, &t.lists} {
		var err error
		if *s, err = newSpill(tmp); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// add writes the next bigram (its key in the runs), its posting list and
// its numbers.
func (t *bigramTables) add(key string, list, numbers []byte) error {
	k, ok := bigramOf(key)
	if !ok {
		return errCorruptRun
	}
	t.b = append(binary.AppendUvarint(t.b[:0], uint64(len(list))), list...)
	n := uint64(len(t.b)) + uint64(len(numbers))
	if n > math.MaxUint32 {
		return errors.New("a bigram's list is larger than 4 GiB")
	}
	le := binary.LittleEndian
	e := le.AppendUint64(nil, k)
	e = le.AppendUint64(e, t.lists.len)
	e = le.AppendUint32(e, uint32(n))
	e = le.AppendUint32(e, crc32Update(gramChecksum(k, t.b), numbers))
	if err := t.table.write(e); err != nil {
		return err
	}
	if err := t.lists.write(t.b); err != nil {
		return err
	}
	return t.lists.write(numbers)
}

// maxBigramRunes is the longest word, in code points, counted from its
// bigrams: a word reads the whole list of each of its bigrams, so a long
// one of common bigrams would read many long lists, where through the
// terms it reads the three shortest gram lists and the few terms holding
// it. Words are rarely longer.
const maxBigramRunes = 8

// wordBigrams are the gram keys of an all-CJK word's bigrams, in order,
// or nil when the word is not all CJK or has fewer than two code points
// or more than maxBigramRunes: such a word is found through the terms.
func wordBigrams(w string) []uint64 {
	var keys []uint64
	prev := rune(-1)
	for _, r := range w {
		if !isCJK(r) || len(keys) == maxBigramRunes-1 { // RuneError for an invalid byte
			return nil
		}
		if prev >= 0 {
			keys = append(keys, gramKey(prev, r))
		}
		prev = r
	}
	return keys
}

// bigramList is a bigram's posting list being read, at its head entry.
type bigramList struct {
	key         uint64
	r, nums     reader // the entries, and their numbers, after the head's
	doc         int
	text, title uint64 // the head's counts
	at          []byte // the head's numbers, text then title
	first, done bool
	textAt      []int // the head's numbers, decoded when a document holds every bigram
	titleAt     []int
}

// bigramCursor gives the documents of a segment that hold an all-CJK
// word, in number order, with its count in the text and in the title:
// the documents every one of its bigrams' lists holds, counted from the
// numbers.
type bigramCursor struct {
	ix    *index
	word  string
	runes int
	lists []*bigramList // each distinct bigram once
	of    []int         // of[i]: the list of the word's i-th bigram
	ptr   []int         // occurrences' scratch: a place in each bigram's numbers
}

// bigramCursor reads the lists of word's bigrams (wordBigrams); nil when
// a bigram is in no document of the segment.
func (ix *index) bigramCursor(word string, keys []uint64) (*bigramCursor, error) {
	c := &bigramCursor{ix: ix, word: word, runes: len(keys) + 1, of: make([]int, len(keys)), ptr: make([]int, len(keys))}
	at := map[uint64]int{}
	for i, k := range keys {
		j, ok := at[k]
		if !ok {
			b, err := ix.keyedList(secBigrams, secBigramLists, k)
			if err != nil || b == nil {
				return nil, err
			}
			ix.cost.lists++
			l, err := c.open(k, b)
			if err != nil {
				return nil, err
			}
			j = len(c.lists)
			at[k] = j
			c.lists = append(c.lists, l)
		}
		c.of[i] = j
	}
	return c, nil
}

// open reads b, bigram k's entry in the bigram lists section (its
// list's length, the list, the numbers), to its first entry.
func (c *bigramCursor) open(k uint64, b []byte) (*bigramList, error) {
	r := reader{b: b}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		return nil, corrupt("bigram list of %q", c.word)
	}
	l := &bigramList{key: k, r: reader{b: r.b[:n]}, nums: reader{b: r.b[n:]}, first: true}
	return l, c.step(l)
}

// step moves l to its next entry, or marks it done.
func (c *bigramCursor) step(l *bigramList) error {
	if len(l.r.b) == 0 {
		if len(l.nums.b) != 0 {
			return corrupt("bigram numbers of %q", c.word)
		}
		l.done = true
		return nil
	}
	delta, text, title := l.r.uvarint(), l.r.uvarint(), l.r.uvarint()
	if l.r.err != nil || delta >= uint64(c.ix.docs-l.doc) || !l.first && delta == 0 || text > math.MaxUint32 || title > math.MaxUint32 || text+title == 0 {
		return corrupt("bigram list of %q", c.word)
	}
	n, ok := uvarintsLen(l.nums.b, text+title)
	if !ok {
		return corrupt("bigram numbers of %q", c.word)
	}
	c.ix.cost.postings++
	l.first = false
	l.doc += int(delta)
	l.text, l.title = text, title
	l.at, l.nums.b = l.nums.b[:n], l.nums.b[n:]
	return nil
}

// next gives the next document holding the word and its counts; ok is
// false at the end.
func (c *bigramCursor) next() (doc, text, title int, ok bool, err error) {
	for {
		target := 0
		for _, l := range c.lists {
			if l.done {
				return 0, 0, 0, false, nil
			}
			target = max(target, l.doc)
		}
		aligned := true
		for _, l := range c.lists {
			for !l.done && l.doc < target {
				if err := c.step(l); err != nil {
					return 0, 0, 0, false, err
				}
			}
			if l.done {
				return 0, 0, 0, false, nil
			}
			aligned = aligned && l.doc == target
		}
		if !aligned {
			continue
		}
		for _, l := range c.lists {
			if err := c.decode(l); err != nil {
				return 0, 0, 0, false, err
			}
		}
		text = c.occurrences(func(l *bigramList) []int { return l.textAt })
		title = c.occurrences(func(l *bigramList) []int { return l.titleAt })
		for _, l := range c.lists {
			if err := c.step(l); err != nil {
				return 0, 0, 0, false, err
			}
		}
		if text+title > 0 {
			return target, text, title, true, nil
		}
	}
}

// decode decodes the numbers of l's head entry.
func (c *bigramCursor) decode(l *bigramList) error {
	l.textAt, l.titleAt = l.textAt[:0], l.titleAt[:0]
	ok := eachPosition(l.at, [2]uint64{l.text, l.title}, func(field, at int) {
		if field == 0 {
			l.textAt = append(l.textAt, at)
		} else {
			l.titleAt = append(l.titleAt, at)
		}
	})
	if !ok {
		return corrupt("bigram numbers of %q", c.word)
	}
	c.ix.cost.positions += int(l.text + l.title)
	return nil
}

// occurrences counts the word in one field, whose numbers of each
// bigram's list nums gives: the places p where the word's i-th bigram is
// at p+i, taken from the left, each at least the word's length past the
// one taken before (strings.Count does not count overlapping matches).
func (c *bigramCursor) occurrences(nums func(*bigramList) []int) int {
	clear(c.ptr)
	count, last := 0, 0
	for _, p := range nums(c.lists[c.of[0]]) {
		if count > 0 && p < last+c.runes {
			continue
		}
		found := true
		for i := 1; i < len(c.of) && found; i++ {
			at := nums(c.lists[c.of[i]])
			for c.ptr[i] < len(at) && at[c.ptr[i]] < p+i {
				c.ptr[i]++
			}
			found = c.ptr[i] < len(at) && at[c.ptr[i]] == p+i
		}
		if found {
			count, last = count+1, p
		}
	}
	return count
}
