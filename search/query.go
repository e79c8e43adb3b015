package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder"
)

// Query is a parsed query (ParseQuery): the words to look for, folded,
// and how they combine.
type Query struct {
	needles []needle // every distinct word, each once
	all     [][]item // every group must match; a group, any of its items
	none    []item   // no item may match
}

// needle is a word of the query, folded, and how many times the query
// asks for it (0: it is only excluded). A repeated word is searched once,
// weighing as often as it is given, so the ranking is that of the words
// searched one by one.
type needle struct {
	word   string
	weight int
}

// item is a word or a phrase of the query: the needles it holds, in
// order. A word of the query may fold to several (U+00A0 folds to a
// space), which must all occur; a phrase's must occur side by side.
type item struct {
	words  []int
	phrase bool
}

// ParseQuery reads keywords as one query, whether they came as ISINDEX
// words (split on '+') or as a search box's value: they are joined by a
// space, then
//
//   - words are separated by any Unicode white space (U+3000 too);
//   - every word must occur, as a substring of the folded text (印刷 is
//     found inside 活版印刷), width and case folded as documents are;
//   - "a phrase" in double quotes matches its words side by side, with
//     only white space between them, or none between CJK characters,
//     which are written without spaces: "印刷 サービス" finds 印刷サービス;
//   - -word and -"a phrase" exclude the documents that hold them;
//   - OR between two words or phrases accepts either.
//
// A quote left open runs to the end; OR at either end, or next to an
// excluded word, is the word "or"; a lone "-" is the word "-".
//
// The words, repeats and the words of phrases included, count against
// maxWords (a *decoder.LimitError above it, as the decoder gives): a
// query's cost is then bounded by its words, not by what one keyword
// hides; 0 means decoder.DefaultMaxKeywords.
func ParseQuery(keywords []string, maxWords int) (*Query, error) {
	if maxWords <= 0 {
		maxWords = decoder.DefaultMaxKeywords
	}
	q := &Query{}
	at := map[string]int{}
	n := 0
	words := func(text string, positive bool) ([]int, error) {
		var idx []int
		for w := range strings.FieldsFuncSeq(fold(text).text, isTermSep) {
			if n++; n > maxWords {
				return nil, &decoder.LimitError{Limit: "keywords", Max: maxWords}
			}
			i, ok := at[w]
			if !ok {
				i = len(q.needles)
				at[w] = i
				q.needles = append(q.needles, needle{word: w})
			}
			if positive {
				q.needles[i].weight++
			}
			idx = append(idx, i)
		}
		return idx, nil
	}
	toks := lex(strings.Join(keywords, " "))
	join := false // the last group takes the next item: an OR came between
	for i, t := range toks {
		if t.isOR() {
			if i > 0 && i+1 < len(toks) && !toks[i-1].minus && !toks[i+1].minus && !toks[i+1].isOR() && len(q.all) > 0 {
				join = true
				continue
			}
		}
		idx, err := words(t.text, !t.minus)
		if err != nil {
			return nil, err
		}
		if len(idx) == 0 {
			continue
		}
		it := item{words: idx, phrase: t.quoted && len(idx) > 1}
		switch {
		case t.minus:
			q.none = append(q.none, it)
		case join:
			q.all[len(q.all)-1] = append(q.all[len(q.all)-1], it)
		default:
			q.all = append(q.all, []item{it})
		}
		join = false
	}
	return q, nil
}

// token is a word or a quoted phrase of a query, as written.
type token struct {
	text          string
	quoted, minus bool
}

func (t token) isOR() bool { return t.text == "OR" && !t.quoted && !t.minus }

// lex cuts a query into tokens at white space, a phrase in double quotes
// being one.
func lex(s string) []token {
	var toks []token
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			return toks
		}
		var t token
		if len(s) > 1 && s[0] == '-' {
			if r, _ := utf8.DecodeRuneInString(s[1:]); !unicode.IsSpace(r) {
				t.minus, s = true, s[1:]
			}
		}
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				end = len(s) - 1
			}
			t.text, t.quoted = s[1:1+end], true
			s = s[min(len(s), 1+end+1):]
		} else {
			end := strings.IndexFunc(s, unicode.IsSpace)
			if end < 0 {
				end = len(s)
			}
			t.text, s = s[:end], s[end:]
		}
		toks = append(toks, t)
	}
}

// empty tells whether the query asks for nothing: no word to find.
func (q *Query) empty() bool { return len(q.all) == 0 }

// matches tells whether a document matches: has says whether it holds
// needle i, phrase whether it holds a phrase whose needles it all holds
// (asked only then, as it may have to read the document).
func (q *Query) matches(has func(i int) bool, phrase func(it item) bool) bool {
	holds := func(it item) bool {
		for _, i := range it.words {
			if !has(i) {
				return false
			}
		}
		return !it.phrase || phrase(it)
	}
	for _, it := range q.none {
		if holds(it) {
			return false
		}
	}
	for _, group := range q.all {
		ok := false
		for _, it := range group {
			if ok = holds(it); ok {
				break
			}
		}
		if !ok {
			return false
		}
	}
	return len(q.all) > 0
}

// phraseIn tells whether folded text holds the words of a phrase side by
// side: between two, white space, or nothing when the characters on
// either side are both CJK.
func (q *Query) phraseIn(text string, it item) bool {
	first := q.needles[it.words[0]].word
	for off := 0; ; {
		i := strings.Index(text[off:], first)
		if i < 0 {
			return false
		}
		at := off + i + len(first)
		ok := true
		prev := first
		for _, w := range it.words[1:] {
			word := q.needles[w].word
			rest := strings.TrimLeftFunc(text[at:], isTermSep)
			if len(rest) == len(text)-at && !cjkJoin(prev, word) {
				ok = false
				break
			}
			if !strings.HasPrefix(rest, word) {
				ok = false
				break
			}
			at = len(text) - len(rest) + len(word)
			prev = word
		}
		if ok {
			return true
		}
		off += i + 1
	}
}

// cjkJoin tells whether a ends and b starts with CJK characters, which a
// text writes side by side where other scripts put a space.
func cjkJoin(a, b string) bool {
	r, _ := utf8.DecodeLastRuneInString(a)
	s, _ := utf8.DecodeRuneInString(b)
	return isCJK(r) && isCJK(s)
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 'ー' || r == '々'
}
