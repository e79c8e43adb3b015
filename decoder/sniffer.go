package decoder

import (
	"slices"
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder/sniff"
)

func (d *Decoder) sniffer() sniff.Sniffer {
	if d.opts.Sniffer != nil {
		return d.opts.Sniffer
	}
	return sniff.Detector{}
}

// sniffBudget bounds the bytes of a request the sniffer reads. Sniffing
// decodes its samples in every candidate charset, and scores only the
// first few thousand characters anyway: a megabyte of high bytes took
// 4 to 5 s of CPU to sniff in full. 64 KiB is far more than any form a
// person types, whose sniffing nothing changes.
const sniffBudget = 64 << 10

// samples gathers the strings of r that a charset could read differently,
// which share one charset, each cut to its fair share of sniffBudget (see
// sampleOf).
func (r *Raw) samples() [][]byte {
	var strs []string
	add := func(s string) {
		if NeedsCharset(s) {
			strs = append(strs, s)
		}
	}
	for _, k := range r.Keywords {
		add(k)
	}
	for _, p := range r.Pairs {
		add(p.Name)
		add(p.Value)
	}
	for _, c := range r.Context {
		add(c)
	}
	return sampleOf(strs, sniffBudget)
}

// sampleOf copies strs, cut so that their bytes total about budget: each
// string gets an equal share, and the share a short string leaves unused
// goes to the longer ones (so strs that fit are taken whole). A string
// longer than its share is represented by a window of it (see window).
func sampleOf(strs []string, budget int) [][]byte {
	total := 0
	for _, s := range strs {
		total += len(s)
	}
	share := total
	if total > budget {
		lens := make([]int, len(strs))
		for i, s := range strs {
			lens[i] = len(s)
		}
		slices.Sort(lens)
		left := budget
		for i, l := range lens {
			share = left / (len(lens) - i)
			if l > share {
				break
			}
			left -= l
		}
	}
	out := make([][]byte, len(strs))
	for i, s := range strs {
		out[i] = []byte(window(s, share))
	}
	return out
}

// window is at most n bytes of s that hold its first bytes a charset reads
// differently from ASCII, and start and end where a character does in the
// candidate charsets, so that no candidate sees an error at the cut that
// the whole of s does not have. It starts a little before the first such
// byte: every byte before it is ASCII, one character in every candidate.
// It ends as cutAt chooses.
func window(s string, n int) string {
	if len(s) <= n {
		return s
	}
	first := 0
	for first < len(s) && s[first] < utf8.RuneSelf && s[first] != 0x1B {
		first++
	}
	start := max(0, first-n/4)
	for i := start; i < first; i++ {
		// Begin at a word when one begins in the lead-in, for the
		// language models.
		if !isAlnum(s[i]) {
			start = i + 1
			break
		}
	}
	start = min(start, first)
	end := min(start+n, len(s))
	if end == len(s) {
		return s[start:]
	}
	return s[start:cutAt(s, start, end, n/2)]
}

// family reads the length of the character at s[i] in one family of
// charsets, and whether it is one valid text may hold. pairs is the
// family's state, read in order from a start: only ISO-2022-JP has one.
type family func(s string, i int, pairs *bool) (n int, ok bool)

// families are the multibyte charsets the sniffer weighs, grouped by how
// their characters are laid out. Single-byte charsets need no entry: every
// byte is a character.
var families = [...]family{
	func(s string, i int, _ *bool) (int, bool) { // UTF-8
		r, n := utf8.DecodeRuneInString(s[i:])
		return n, r != utf8.RuneError || n > 1
	},
	func(s string, i int, _ *bool) (int, bool) { // Shift_JIS
		switch c := s[i]; {
		case 0x81 <= c && c <= 0x9F || 0xE0 <= c && c <= 0xFC:
			return 2, i+1 < len(s) && inRange(s[i+1], 0x40, 0xFC) && s[i+1] != 0x7F
		case c == 0xA0 || c >= 0xFD:
			return 1, false
		}
		return 1, true
	},
	func(s string, i int, _ *bool) (int, bool) { // EUC-JP
		switch c := s[i]; {
		case c < utf8.RuneSelf:
			return 1, true
		case c == 0x8F:
			return 3, i+2 < len(s) && inRange(s[i+1], 0xA1, 0xFE) && inRange(s[i+2], 0xA1, 0xFE)
		case c == 0x8E:
			return 2, i+1 < len(s) && inRange(s[i+1], 0xA1, 0xDF)
		case 0xA1 <= c && c <= 0xFE:
			return 2, i+1 < len(s) && inRange(s[i+1], 0xA1, 0xFE)
		}
		return 1, false
	},
	func(s string, i int, _ *bool) (int, bool) { // EUC-KR, GBK, GB18030, Big5
		switch c := s[i]; {
		case c < 0x81:
			return 1, true // ASCII, or GBK's 80, the euro sign
		case c == 0xFF:
			return 1, false
		case i+1 < len(s) && inRange(s[i+1], '0', '9'):
			// GB18030's four bytes: lead, digit, lead, digit.
			return 4, i+3 < len(s) && inRange(s[i+2], 0x81, 0xFE) && inRange(s[i+3], '0', '9')
		}
		return 2, i+1 < len(s) && inRange(s[i+1], 0x40, 0xFE) && s[i+1] != 0x7F
	},
	iso2022JPLen,
}

// iso2022JPLen reads ISO-2022-JP (Encoding Standard § 13.2.1), whose
// escape sequences are three bytes, and whose bytes go in pairs after
// ESC $ @ or ESC $ B until another escape or a line feed.
func iso2022JPLen(s string, i int, pairs *bool) (int, bool) {
	switch c := s[i]; {
	case c >= utf8.RuneSelf:
		return 1, false
	case c == 0x1B:
		if i+2 >= len(s) {
			return 1, false
		}
		*pairs = s[i+1] == '$'
		return 3, true
	case c == '\n':
		*pairs = false
	case *pairs && 0x21 <= c && c <= 0x7E:
		return 2, i+1 < len(s) && inRange(s[i+1], 0x21, 0x7E)
	}
	return 1, true
}

func inRange(c, lo, hi byte) bool { return lo <= c && c <= hi }

// cutAt chooses where a window of s ends, which starts at start, where a
// character starts in every charset, and may reach end: the last offset,
// at most back bytes before end, where a character starts in every family
// the window is valid in, each read from start. Failing that, in the most
// of them, UTF-8 counting double: most forms are UTF-8.
func cutAt(s string, start, end, back int) int {
	var next, weight [len(families)]int
	for f := range families {
		next[f], weight[f] = start, 1
	}
	weight[0] = 2
	// Read each family through the window first: one that finds an
	// invalid character is not the text's charset, and has no say.
	for f, length := range families {
		pairs := false
		for i := start; i < end; {
			n, ok := length(s, i, &pairs)
			if !ok {
				weight[f] = 0
				break
			}
			i += n
		}
	}
	var pairs [len(families)]bool
	best, bestScore := end, -1
	for i := start; i <= end; i++ {
		score := 0
		for f, length := range families {
			if next[f] != i {
				continue
			}
			score += weight[f]
			if i < end {
				n, _ := length(s, i, &pairs[f])
				next[f] = i + n
			}
		}
		if i > start && i >= end-back && score >= bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
