package search

import (
	"io"
	"slices"
	"sort"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/cases"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// folded is text after NFKC and full case folding, with a map from the
// folded text back to the original.
type folded struct {
	text  string
	spans []span // in order of start
}

// maxFoldGrowth is how many times its length a text's folding can be:
// no rune folds to more (U+FDFA, 3 bytes to 33), and folding is
// context-free. It bounds what an index may say a document's text holds.
const maxFoldGrowth = 11

// span is a stretch of folded text that starts at start and came from the
// original at orig. In a run, each rune came from a rune of the same
// length (ASCII, 印 or Σ→σ): an offset inside maps to its own rune; else
// the span is one segment or character, which may fold to many (ﬁ to
// "fi", U+FDFA to 18 letters and spaces), and maps to its start. Offsets
// are int32: a document is at most maxDocBytes, whose folding is at most
// 11 times as long (U+FDFA, 3 bytes to 33).
type span struct {
	start, orig int32
	run         bool
}

var folder = cases.Fold() // stateless (x/text's caseFolder): safe to share

// fold folds s segment by segment (norm.Iter cuts at normalization
// boundaries), so that a match in the folded text maps back to the
// original for the snippet. It is the one folding of the search: the
// query's words, the scanned documents and the index all go through it.
//
// The result is cases.Fold of norm.NFKC of s (folding is context-free, so
// it folds segment by segment as well as whole). An ASCII byte followed
// by another (or ending s) is a segment of its own: norm.Iter cuts before
// every ASCII byte, which no character combines with, and such a byte is
// its own NFKC form and folds to its lower case (CaseFolding.txt folds no
// other ASCII). Runs of them are so copied without x/text, and only the
// stretches between them go through norm.Iter, each started afresh at an
// ASCII byte, where norm.Iter would cut anyway: most text is such runs,
// and the Iter's work for each of their bytes was most of the cost of a
// search.
//
// The map has at most one span per rune of s, whatever the folding makes
// of it: norm.Iter gives a character that decomposes into several
// starters as that many segments at one position (U+FDFA as 18), which
// share their span; a rune that folds to one rune of its own length
// joins the run before it. Its memory is so bounded by len(s) (12 bytes
// a span, a rune at least 2 bytes when not in a run).
func fold(s string) folded {
	var w foldBuf
	return w.fold(s)
}

// foldBuf is the memory of a folding, reused by the next: a search folds
// each document it shows (each it reads, without an index) only to count
// and find the query's words in it, and a process that allocates each
// afresh faults in fresh pages for every one.
type foldBuf struct {
	b     []byte
	spans []span
	it    *norm.Iter // made for the first text that is not all ASCII: 2 KB, escaping to the heap
}

// fold is fold(s) in w's memory: its text and map are w's, valid until
// w folds again; a caller keeps neither.
func (w *foldBuf) fold(s string) folded {
	f := folded{spans: w.spans[:0]}
	b := w.b[:0]
	if cap(b) < len(s) {
		b = make([]byte, 0, len(s)+len(s)/8)
	}
	// mark records that the folded text from start came from pos, unless
	// the last span already maps it.
	mark := func(start, pos int, run bool) {
		if n := len(f.spans); n > 0 && f.spans[n-1].run == run && (run || int(f.spans[n-1].orig) == pos) {
			return
		}
		if len(f.spans) == cap(f.spans) { // as b below: room for the rest at this rate
			f.spans = grow(f.spans, 1+len(f.spans)*(len(s)-pos)/max(pos, 1))
		}
		f.spans = append(f.spans, span{start: int32(start), orig: int32(pos), run: run})
	}
	for at := 0; at < len(s); {
		if end := asciiRun(s, at); end > at {
			mark(len(b), at, true)
			for _, c := range []byte(s[at:end]) {
				b = append(b, lowerASCII(c))
			}
			at = end
			continue
		}
		// Up to the next run, through norm.Iter: it starts at a
		// boundary (s's start, or an ASCII byte) and ends at one.
		end := at + 1
		for end < len(s) && asciiRun(s, end) == end {
			end++
		}
		if w.it == nil {
			w.it = new(norm.Iter)
		}
		// The Iter is given the rest of s, not s[at:end]: at the end of
		// its input it cuts a truncated UTF-8 sequence byte by byte,
		// before an ASCII byte as one segment, and the map must be the
		// same whatever follows the stretch.
		it := w.it
		it.InitString(norm.NFKC, s[at:])
		for !it.Done() && at+it.Pos() < end {
			pos, start := at+it.Pos(), len(b)
			if e := inertRun(s, pos); e > pos {
				mark(start, pos, true)
				b = append(b, s[pos:e]...)
				it.Seek(int64(e-at), io.SeekStart)
				continue
			}
			if c, size, ok := compatASCII(s, pos); ok {
				b = append(b, lowerASCII(c))
				mark(start, pos, false)
				it.Seek(int64(pos+size-at), io.SeekStart)
				continue
			}
			seg := it.Next()
			if len(seg) == 1 && seg[0] < utf8.RuneSelf && at+it.Pos() == pos+1 { // not Ａ or K (KELVIN SIGN)
				b = append(b, lowerASCII(seg[0]))
				mark(start, pos, true)
				continue
			}
			if need := 4*len(seg) + utf8.UTFMax; cap(b)-len(b) < need {
				// Out of room: size b for the rest of s folding as it has so
				// far (U+FDFA makes 11 times as much), one allocation for a
				// uniform text rather than one per doubling.
				b = grow(b, max(need, len(b)*(len(s)-pos)/max(pos, 1)))
			}
			b = appendFolded(b, seg)
			_, size := utf8.DecodeRuneInString(s[pos:])
			mark(start, pos, at+it.Pos() == pos+size && len(b)-start == size && utf8.RuneCount(b[start:]) == 1)
		}
		at = max(end, at+it.Pos())
	}
	// The text shares b rather than copy it: b is not written until the
	// next folding in w, when the caller is done with this one.
	f.text = unsafe.String(unsafe.SliceData(b), len(b))
	w.b, w.spans = b, f.spans
	return f
}

// inertRun is the end of the run of kana and ideographs (inert) of s
// from at, a segment's start, each followed by another, by a character
// that starts a segment of its own (not a combining voiced sound mark),
// or by nothing; at when there is none. Each is a segment of NFKC that
// folds to itself, as ASCII is, and norm.Iter's work for each was most
// of the cost of folding Japanese text: the run is copied as it is.
func inertRun(s string, at int) int {
	end := at
	for end < len(s) {
		r, size := utf8.DecodeRuneInString(s[end:])
		if !inert(r) {
			break
		}
		if n := end + size; n < len(s) && s[n] >= utf8.RuneSelf {
			if r, _ := utf8.DecodeRuneInString(s[n:]); !inert(r) && !startsSegment(s[n:]) {
				break
			}
		}
		end += size
	}
	return end
}

// inert tells whether r is hiragana, katakana (and its prolonged sound
// mark) or a CJK unified ideograph of the basic block: its own NFKC form
// and case folding, and combining with nothing before it
// (TestInertRunesFoldToThemselves holds them to x/text's tables).
func inert(r rune) bool {
	return 0x3041 <= r && r <= 0x3096 || 0x30a1 <= r && r <= 0x30fc || 0x4e00 <= r && r <= 0x9fff
}

// compatASCII tells whether s[pos:], a segment's start, is a character
// other than ASCII whose NFKC form is one ASCII byte (U+3000 IDEOGRAPHIC
// SPACE, the full-width forms, KELVIN SIGN), c, followed by one that
// starts a segment of its own, or by nothing: its folding is then c
// alone, which nothing composes with. norm.Iter would give the same,
// after composing it, and its first composition in a process builds
// x/text's table of them (37 KB in fresh pages), which a shown Japanese
// document with a line of keywords between full-width spaces needed for
// nothing else.
func compatASCII(s string, pos int) (c byte, size int, ok bool) {
	if !mayBeCompatASCII(s[pos:]) {
		return 0, 0, false
	}
	p := norm.NFKC.PropertiesString(s[pos:])
	d := p.Decomposition()
	if len(d) != 1 || d[0] >= utf8.RuneSelf || !p.BoundaryBefore() {
		return 0, 0, false
	}
	if n := pos + p.Size(); n < len(s) && !startsSegment(s[n:]) {
		return 0, 0, false
	}
	return d[0], p.Size(), true
}

// startsSegment tells whether the character s starts with starts a
// segment of NFKC (norm.Iter cuts before it) whatever is before it:
// neither it nor the first character of its decomposition combines with
// what is before. BoundaryBefore is the character's own property, but a
// Hangul compatibility jamo (ㅡ, ﾡ, ﾥ) decomposes to a conjoining one
// that composes with what precedes it.
func startsSegment(s string) bool {
	p := norm.NFKC.PropertiesString(s)
	d := p.Decomposition()
	return p.BoundaryBefore() && (len(d) == 0 || norm.NFKC.Properties(d).BoundaryBefore())
}

// mayBeCompatASCII tells, by its first bytes, whether s may start with a
// character whose NFKC form is one ASCII byte (TestCompatASCIILeads holds
// it to x/text's tables): no kana nor ideograph is looked up for it.
func mayBeCompatASCII(s string) bool {
	switch s[0] {
	case 0xc2, 0xc5, 0xca, 0xcb, 0xcd, 0xe1, 0xe2, 0xea, 0xef, 0xf0:
		return true
	case 0xe3: // U+3000 only
		return len(s) > 1 && s[1] == 0x80
	}
	return false
}

// asciiRun is the end of the run of ASCII bytes of s from at, each
// followed by another ASCII byte or by the end of s (its last is not: it
// may start a segment with what follows); at when there is none.
func asciiRun(s string, at int) int {
	end := at
	for end < len(s) && s[end] < utf8.RuneSelf && (end+1 == len(s) || s[end+1] < utf8.RuneSelf) {
		end++
	}
	return end
}

// lowerASCII is the folding of an ASCII byte that is a segment of its own.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// appendFolded appends seg case folded to b, without a string per segment.
func appendFolded(b, seg []byte) []byte {
	for {
		n, m, err := folder.Transform(b[len(b):cap(b)], seg, true)
		b, seg = b[:len(b)+n], seg[m:]
		if err != transform.ErrShortDst {
			if err != nil { // not expected of a folder at EOF: the slow way
				b = append(b, folder.Bytes(seg)...)
			}
			return b
		}
		b = grow(b, 4*len(seg)+utf8.UTFMax)
	}
}

// grow makes room for n more elements in s, doubling its capacity at
// least: append grows a large slice by a quarter, which would allocate
// about five times the final size of a long folding on the way.
func grow[E any](s []E, n int) []E {
	if cap(s)-len(s) >= n {
		return s
	}
	return slices.Grow(s, max(n, cap(s)))
}

// origOffset maps a folded offset to the start of its original segment
// (inside a run, to its own byte).
func (f folded) origOffset(off int) int {
	i := sort.Search(len(f.spans), func(i int) bool { return int(f.spans[i].start) > off }) - 1
	if i < 0 {
		return 0
	}
	if sp := f.spans[i]; sp.run {
		return int(sp.orig) + off - int(sp.start)
	}
	return int(f.spans[i].orig)
}

// origEnd maps a folded offset that ends a match to where it ends in the
// original: inside a run, its own byte; else the end of the segment it
// falls in, the start of the next span (or n, the original's length), so
// that a match ending inside "ss" from ß covers the ß.
func (f folded) origEnd(off, n int) int {
	if off <= 0 {
		return 0
	}
	i := sort.Search(len(f.spans), func(i int) bool { return int(f.spans[i].start) >= off }) - 1
	if i < 0 {
		return 0
	}
	if sp := f.spans[i]; sp.run {
		return int(sp.orig) + off - int(sp.start)
	}
	if i+1 < len(f.spans) {
		return int(f.spans[i+1].orig)
	}
	return n
}
