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
// A query reads each list once, whatever the number of its words holding
// the bigram: the lists are cursors of the query's merge of posting lists
// by document (candidates), which marks the entries of a document
// (bigramWords.take) before it moves the lists past it.
type bigramList struct {
	key         uint64
	r, nums     reader // the entries, and their numbers, after the head's
	doc         int
	text, title uint64 // the head's counts
	at          []byte // the head's numbers, text then title
	first, done bool
	words       []int // the words (bigramWords.words) whose first bigram this is
	// The entry taken at document seen (-1: none yet): its counts, its
	// numbers, and those decoded when a word needs them (at decoded).
	seen, decoded       int
	seenText, seenTitle uint64
	seenAt              []byte
	textAt, titleAt     []int
}

// bigramWord is an all-CJK word of the query counted from its bigrams.
type bigramWord struct {
	needle int   // its place in the query's needles
	of     []int // of[i]: the list (bigramWords.lists) of its i-th bigram
}

// bigramWords are the words of a query counted from their bigrams in one
// segment, and the lists of their bigrams, each distinct bigram once.
type bigramWords struct {
	ix    *index
	words []bigramWord
	lists []*bigramList
	ptr   []int // occurrences' scratch: a place in each bigram's numbers
}

// bigramWords finds the lists of the bigrams of the words of needles
// that keys gives bigrams (wordBigrams') for, keys[j] needles[j]'s: a
// word with a bigram in no document of the segment is in none, and its
// other lists are not read for it.
func (ix *index) bigramWords(needles []needle, keys [][]uint64) (*bigramWords, error) {
	return newBigramWords(ix, needles, keys, func(k uint64) ([]byte, error) {
		return ix.keyedList(secBigrams, secBigramLists, k)
	})
}

// newBigramWords is bigramWords, finding a bigram's entry in the bigram
// lists section (nil when it has none) with entry.
func newBigramWords(ix *index, needles []needle, wordKeys [][]uint64, entry func(k uint64) ([]byte, error)) (*bigramWords, error) {
	bw := &bigramWords{ix: ix}
	found := map[uint64][]byte{} // a bigram's entry, nil when it has none
	at := map[uint64]int{}       // a bigram's place in bw.lists
	for j, n := range needles {
		keys := wordKeys[j]
		if keys == nil {
			continue
		}
		all := true
		for _, k := range keys {
			b, ok := found[k]
			if !ok {
				var err error
				if b, err = entry(k); err != nil {
					return nil, err
				}
				found[k] = b
			}
			if all = b != nil; !all {
				break
			}
		}
		if !all {
			continue
		}
		w := bigramWord{needle: j, of: make([]int, len(keys))}
		for i, k := range keys {
			l, ok := at[k]
			if !ok {
				list, err := bw.open(k, found[k], n.word)
				if err != nil {
					return nil, err
				}
				l, at[k] = len(bw.lists), len(bw.lists)
				bw.lists = append(bw.lists, list)
			}
			w.of[i] = l
		}
		bw.lists[w.of[0]].words = append(bw.lists[w.of[0]].words, len(bw.words))
		bw.words = append(bw.words, w)
		if len(keys) > len(bw.ptr) {
			bw.ptr = make([]int, len(keys))
		}
	}
	return bw, nil
}

// open reads b, bigram k's entry in the bigram lists section (its
// list's length, the list, the numbers), found for word, to before its
// first entry (step).
func (bw *bigramWords) open(k uint64, b []byte, word string) (*bigramList, error) {
	r := reader{b: b}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		return nil, corrupt("bigram list of %q", word)
	}
	bw.ix.cost.lists++
	return &bigramList{key: k, r: reader{b: r.b[:n]}, nums: reader{b: r.b[n:]}, first: true, seen: -1, decoded: -1}, nil
}

// name is l's bigram, for an error.
func (l *bigramList) name() string {
	return gramString(l.key)
}

// step moves l to its next entry, or marks it done.
func (bw *bigramWords) step(l *bigramList) error {
	if len(l.r.b) == 0 {
		if len(l.nums.b) != 0 {
			return corrupt("bigram numbers of %q", l.name())
		}
		l.done = true
		return nil
	}
	doc, text, title, ok := bw.ix.postingEntry(&l.r, l.doc, l.first)
	if !ok {
		return corrupt("bigram list of %q", l.name())
	}
	n, ok := uvarintsLen(l.nums.b, text+title)
	if !ok {
		return corrupt("bigram numbers of %q", l.name())
	}
	l.first = false
	l.doc = doc
	l.text, l.title = text, title
	l.at, l.nums.b = l.nums.b[:n], l.nums.b[n:]
	return nil
}

// take marks l's head entry as its entry for document l.doc, before the
// merge steps l past it, and gives the words to count there (count):
// those whose first bigram l is.
func (l *bigramList) take() []int {
	l.seen, l.seenText, l.seenTitle, l.seenAt = l.doc, l.text, l.title, l.at
	return l.words
}

// count gives word w's count in the text and in the title of document d,
// 0 and 0 unless every list of its bigrams was taken at d.
func (bw *bigramWords) count(w int, d int) (text, title int, err error) {
	word := &bw.words[w]
	for _, i := range word.of {
		if bw.lists[i].seen != d {
			return 0, 0, nil
		}
	}
	for _, i := range word.of {
		if l := bw.lists[i]; l.decoded != d {
			if err := bw.decode(l); err != nil {
				return 0, 0, err
			}
		}
	}
	text = bw.occurrences(word.of, func(l *bigramList) []int { return l.textAt })
	title = bw.occurrences(word.of, func(l *bigramList) []int { return l.titleAt })
	return text, title, nil
}

// decode decodes the numbers of l's entry taken at l.seen.
func (bw *bigramWords) decode(l *bigramList) error {
	l.textAt, l.titleAt = l.textAt[:0], l.titleAt[:0]
	ok := eachPosition(l.seenAt, [2]uint64{l.seenText, l.seenTitle}, func(field, at int) {
		if field == 0 {
			l.textAt = append(l.textAt, at)
		} else {
			l.titleAt = append(l.titleAt, at)
		}
	})
	if !ok {
		return corrupt("bigram numbers of %q", l.name())
	}
	l.decoded = l.seen
	bw.ix.cost.positions += int(l.seenText + l.seenTitle)
	return nil
}

// occurrences counts a word, whose i-th bigram's list is of[i], in one
// field, whose numbers of each list nums gives: the places p where the
// i-th bigram is at p+i, taken from the left, each at least the word's
// length past the one taken before (strings.Count does not count
// overlapping matches).
func (bw *bigramWords) occurrences(of []int, nums func(*bigramList) []int) int {
	ptr := bw.ptr[:len(of)]
	clear(ptr)
	runes := len(of) + 1
	count, last := 0, 0
	for _, p := range nums(bw.lists[of[0]]) {
		if count > 0 && p < last+runes {
			continue
		}
		found := true
		for i := 1; i < len(of) && found; i++ {
			at := nums(bw.lists[of[i]])
			for ptr[i] < len(at) && at[ptr[i]] < p+i {
				ptr[i]++
			}
			found = ptr[i] < len(at) && at[ptr[i]] == p+i
		}
		if found {
			count, last = count+1, p
		}
	}
	return count
}
