package charset

// A reference decoder written straight from the WHATWG Encoding Standard's
// decoder algorithms (https://encoding.spec.whatwg.org/, §§ 9-14) over the
// standard's own index files, vendored under testdata/whatwg-encoding. It is
// slow and literal on purpose: it is the truth the package is compared with,
// and shares no code with it.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/internal/vectors"
)

// vectorsDir is the WHATWG Encoding Standard's index files, vendored under
// the project's testdata/whatwg-encoding (see internal/vectors).
func vectorsDir(t testing.TB) string {
	t.Helper()
	return filepath.Dir(vectors.Path(t, "whatwg-encoding/index-jis0208.txt"))
}

// whatwgIndex is one index file: pointer to code point.
type whatwgIndex map[int]rune

type refTables struct {
	jis0208, jis0212, big5, euckr, gb18030, katakana, windows1252 whatwgIndex
	gbRanges                                                      [][2]int // pointer, code point; ascending
	labels                                                        map[string]string
}

var (
	refOnce   sync.Once
	refLoaded *refTables
	refErr    error
)

// loadRef parses the index files once per test binary.
func loadRef(t testing.TB) *refTables {
	t.Helper()
	dir := vectorsDir(t)
	refOnce.Do(func() { refLoaded, refErr = parseRef(dir) })
	if refErr != nil {
		t.Fatal(refErr)
	}
	return refLoaded
}

func parseRef(dir string) (*refTables, error) {
	r := &refTables{}
	for _, f := range []struct {
		name string
		dst  *whatwgIndex
	}{
		{"jis0208", &r.jis0208}, {"jis0212", &r.jis0212}, {"big5", &r.big5},
		{"euc-kr", &r.euckr}, {"gb18030", &r.gb18030},
		{"iso-2022-jp-katakana", &r.katakana}, {"windows-1252", &r.windows1252},
	} {
		idx, err := parseIndex(filepath.Join(dir, "index-"+f.name+".txt"))
		if err != nil {
			return nil, err
		}
		*f.dst = idx
	}
	ranges, err := parseIndex(filepath.Join(dir, "index-gb18030-ranges.txt"))
	if err != nil {
		return nil, err
	}
	for p, c := range ranges {
		r.gbRanges = append(r.gbRanges, [2]int{p, int(c)})
	}
	slices.SortFunc(r.gbRanges, func(a, b [2]int) int { return a[0] - b[0] })
	r.labels, err = parseLabels(filepath.Join(dir, "encodings.json"))
	return r, err
}

func parseIndex(path string) (whatwgIndex, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	idx := whatwgIndex{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 2 {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		p, err1 := strconv.Atoi(fields[0])
		c, err2 := strconv.ParseUint(strings.TrimPrefix(fields[1], "0x"), 16, 32)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		idx[p] = rune(c)
	}
	return idx, sc.Err()
}

// parseLabels maps each label of encodings.json to its encoding's name.
func parseLabels(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var groups []struct {
		Encodings []struct {
			Labels []string `json:"labels"`
			Name   string   `json:"name"`
		} `json:"encodings"`
	}
	if err := json.Unmarshal(b, &groups); err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, g := range groups {
		for _, e := range g.Encodings {
			for _, l := range e.Labels {
				m[l] = e.Name
			}
		}
	}
	return m, nil
}

// lookup returns the index's code point for pointer, or -1 for null.
func (x whatwgIndex) lookup(p int) rune {
	if c, ok := x[p]; ok {
		return c
	}
	return -1
}

// gbRange is "index gb18030 ranges code point" (§ 5).
func (r *refTables) gbRange(p int) rune {
	if p > 39419 && p < 189000 || p > 1237575 {
		return -1
	}
	if p == 7457 {
		return 0xE7C7
	}
	var off, cp int
	for _, e := range r.gbRanges {
		if e[0] > p {
			break
		}
		off, cp = e[0], e[1]
	}
	return rune(cp + p - off)
}

// The results a decoder's handler returns (§ 3, "process an item").
const (
	resContinue = iota
	resEmit
	resError
	resFinished
)

const eof = -1

// refStream is the standard's I/O queue over src: "restore" and "prepend"
// always give back the bytes just read, so they move the position back.
type refStream struct {
	src []byte
	pos int
}

func (s *refStream) read() int {
	if s.pos >= len(s.src) {
		s.pos = len(s.src) + 1 // reading end-of-queue consumes it
		return eof
	}
	s.pos++
	return int(s.src[s.pos-1])
}

// unread prepends the last n items read, end-of-queue included.
func (s *refStream) unread(n int) { s.pos -= n }

// refStep is one decoder's handler: it reads from s and says what happened.
// keep is the number of bytes just read that start the next item rather
// than belong to this one (only ISO-2022-JP's trail state uses it: the ESC
// that ends a truncated character opens the next escape sequence). reset
// ends an item without output: a complete escape sequence.
type refStep func(s *refStream) (res int, cps []rune, keep int, reset bool)

// refDecode runs a decoder to the end of src with error mode "replacement"
// (§ 3, "decode" and "process a queue") and says where each error began.
func refDecode(step refStep, src []byte) (string, []int) {
	s := &refStream{src: src}
	var out strings.Builder
	var errs []int
	start := 0
	for {
		res, cps, keep, reset := step(s)
		end := min(s.pos, len(src)) - keep
		switch res {
		case resFinished:
			return out.String(), errs
		case resEmit:
			for _, c := range cps {
				out.WriteRune(c)
			}
			start = end
		case resError:
			out.WriteRune(utf8.RuneError)
			errs = append(errs, start)
			start = end
		case resContinue:
			if reset {
				start = end
			}
		}
	}
}

func emit(c ...rune) (int, []rune, int, bool) { return resEmit, c, 0, false }
func fail() (int, []rune, int, bool)          { return resError, nil, 0, false }
func cont() (int, []rune, int, bool)          { return resContinue, nil, 0, false }
func done() (int, []rune, int, bool)          { return resFinished, nil, 0, false }

func isASCIIByte(b int) bool { return b >= 0 && b <= 0x7F }
func in(b, lo, hi int) bool  { return b >= lo && b <= hi }

// refDecoder returns a fresh reference decoder for an encoding name as
// Charset.Name spells it, or nil when the reference has no tables for it.
func (r *refTables) decoder(name string) refStep {
	switch name {
	case "shift_jis":
		return r.shiftJIS()
	case "euc-jp":
		return r.eucJP()
	case "iso-2022-jp":
		return r.iso2022JP()
	case "euc-kr":
		return r.eucKR()
	case "gbk", "gb18030":
		return r.gb18030Decoder()
	case "big5":
		return r.big5Decoder()
	case "windows-1252":
		return r.singleByte(r.windows1252)
	}
	return nil
}

// refDecodeName decodes src as the named encoding with the reference.
func (r *refTables) decode(name string, src []byte) (string, []int) {
	return refDecode(r.decoder(name), src)
}

// singleByte is the single-byte decoder (§ 9.1.1).
func (r *refTables) singleByte(idx whatwgIndex) refStep {
	return func(s *refStream) (int, []rune, int, bool) {
		b := s.read()
		switch {
		case b == eof:
			return done()
		case isASCIIByte(b):
			return emit(rune(b))
		}
		if c := idx.lookup(b - 0x80); c >= 0 {
			return emit(c)
		}
		return fail()
	}
}

// shiftJIS is the Shift_JIS decoder (§ 13.3.1).
func (r *refTables) shiftJIS() refStep {
	lead := 0
	return func(s *refStream) (int, []rune, int, bool) {
		b := s.read()
		if b == eof {
			if lead != 0 {
				lead = 0
				return fail()
			}
			return done()
		}
		if lead != 0 {
			l, pointer := lead, -1
			lead = 0
			offset, leadOffset := 0x41, 0xC1
			if b < 0x7F {
				offset = 0x40
			}
			if l < 0xA0 {
				leadOffset = 0x81
			}
			if in(b, 0x40, 0x7E) || in(b, 0x80, 0xFC) {
				pointer = (l-leadOffset)*188 + b - offset
			}
			if in(pointer, 8836, 10715) {
				return emit(rune(0xE000 - 8836 + pointer))
			}
			if pointer >= 0 {
				if c := r.jis0208.lookup(pointer); c >= 0 {
					return emit(c)
				}
			}
			if isASCIIByte(b) {
				s.unread(1)
			}
			return fail()
		}
		switch {
		case isASCIIByte(b) || b == 0x80:
			return emit(rune(b))
		case in(b, 0xA1, 0xDF):
			return emit(rune(0xFF61 - 0xA1 + b))
		case in(b, 0x81, 0x9F) || in(b, 0xE0, 0xFC):
			lead = b
			return cont()
		}
		return fail()
	}
}

// eucJP is the EUC-JP decoder (§ 13.1.1).
func (r *refTables) eucJP() refStep {
	lead, jis0212 := 0, false
	return func(s *refStream) (int, []rune, int, bool) {
		b := s.read()
		if b == eof {
			if lead != 0 {
				lead = 0
				return fail()
			}
			return done()
		}
		if lead == 0x8E && in(b, 0xA1, 0xDF) {
			lead = 0
			return emit(rune(0xFF61 - 0xA1 + b))
		}
		if lead == 0x8F && in(b, 0xA1, 0xFE) {
			jis0212, lead = true, b
			return cont()
		}
		if lead != 0 {
			l := lead
			lead = 0
			c := rune(-1)
			if in(l, 0xA1, 0xFE) && in(b, 0xA1, 0xFE) {
				idx := r.jis0208
				if jis0212 {
					idx = r.jis0212
				}
				c = idx.lookup((l-0xA1)*94 + b - 0xA1)
			}
			jis0212 = false
			if c >= 0 {
				return emit(c)
			}
			if isASCIIByte(b) {
				s.unread(1)
			}
			return fail()
		}
		switch {
		case isASCIIByte(b):
			return emit(rune(b))
		case b == 0x8E || b == 0x8F || in(b, 0xA1, 0xFE):
			lead = b
			return cont()
		}
		return fail()
	}
}

// iso2022JP is the ISO-2022-JP decoder (§ 13.2.1).
func (r *refTables) iso2022JP() refStep {
	const (
		stASCII = iota
		stRoman
		stKatakana
		stLead
		stTrail
		stEscStart
		stEsc
	)
	state, outState, lead, outFlag := stASCII, stASCII, 0, false
	return func(s *refStream) (int, []rune, int, bool) {
		b := s.read()
		switch state {
		case stASCII:
			switch {
			case b == 0x1B:
				state = stEscStart
				return cont()
			case isASCIIByte(b) && b != 0x0E && b != 0x0F:
				outFlag = false
				return emit(rune(b))
			case b == eof:
				return done()
			}
			outFlag = false
			return fail()
		case stRoman:
			switch {
			case b == 0x1B:
				state = stEscStart
				return cont()
			case b == 0x5C:
				outFlag = false
				return emit(0xA5)
			case b == 0x7E:
				outFlag = false
				return emit(0x203E)
			case isASCIIByte(b) && b != 0x0E && b != 0x0F:
				outFlag = false
				return emit(rune(b))
			case b == eof:
				return done()
			}
			outFlag = false
			return fail()
		case stKatakana:
			switch {
			case b == 0x1B:
				state = stEscStart
				return cont()
			case in(b, 0x21, 0x5F):
				outFlag = false
				return emit(rune(0xFF61 - 0x21 + b))
			case b == eof:
				return done()
			}
			outFlag = false
			return fail()
		case stLead:
			switch {
			case b == 0x1B:
				state = stEscStart
				return cont()
			case in(b, 0x21, 0x7E):
				outFlag, lead, state = false, b, stTrail
				return cont()
			case b == eof:
				return done()
			}
			outFlag = false
			return fail()
		case stTrail:
			switch {
			case b == 0x1B:
				state = stEscStart
				return resError, nil, 1, false
			case in(b, 0x21, 0x7E):
				state = stLead
				if c := r.jis0208.lookup((lead-0x21)*94 + b - 0x21); c >= 0 {
					return emit(c)
				}
				return fail()
			case b == eof:
				state = stLead
				s.unread(1)
				return fail()
			}
			state = stLead
			return fail()
		case stEscStart:
			if b == 0x24 || b == 0x28 {
				lead, state = b, stEsc
				return cont()
			}
			s.unread(1)
			outFlag, state = false, outState
			return fail()
		case stEsc:
			l := lead
			lead = 0
			next := -1
			switch {
			case l == 0x28 && b == 0x42:
				next = stASCII
			case l == 0x28 && b == 0x4A:
				next = stRoman
			case l == 0x28 && b == 0x49:
				next = stKatakana
			case l == 0x24 && (b == 0x40 || b == 0x42):
				next = stLead
			}
			if next >= 0 {
				state, outState = next, next
				output := outFlag
				outFlag = true
				if !output {
					return resContinue, nil, 0, true
				}
				return fail()
			}
			s.unread(2)
			outFlag, state = false, outState
			return fail()
		}
		panic("unreachable")
	}
}

// eucKR is the EUC-KR decoder (§ 14.1.1).
func (r *refTables) eucKR() refStep {
	lead := 0
	return func(s *refStream) (int, []rune, int, bool) {
		b := s.read()
		if b == eof {
			if lead != 0 {
				lead = 0
				return fail()
			}
			return done()
		}
		if lead != 0 {
			l := lead
			lead = 0
			if in(b, 0x41, 0xFE) {
				if c := r.euckr.lookup((l-0x81)*190 + b - 0x41); c >= 0 {
					return emit(c)
				}
			}
			if isASCIIByte(b) {
				s.unread(1)
			}
			return fail()
		}
		switch {
		case isASCIIByte(b):
			return emit(rune(b))
		case in(b, 0x81, 0xFE):
			lead = b
			return cont()
		}
		return fail()
	}
}

// gb18030Decoder is the gb18030 decoder (§ 10.2.1), which gbk shares.
func (r *refTables) gb18030Decoder() refStep {
	first, second, third := 0, 0, 0
	return func(s *refStream) (int, []rune, int, bool) {
		b := s.read()
		if b == eof {
			if first == 0 && second == 0 && third == 0 {
				return done()
			}
			first, second, third = 0, 0, 0
			return fail()
		}
		if third != 0 {
			if !in(b, 0x30, 0x39) {
				s.unread(3)
				first, second, third = 0, 0, 0
				return fail()
			}
			c := r.gbRange((((first-0x81)*10+second-0x30)*126+third-0x81)*10 + b - 0x30)
			first, second, third = 0, 0, 0
			if c < 0 {
				return fail()
			}
			return emit(c)
		}
		if second != 0 {
			if in(b, 0x81, 0xFE) {
				third = b
				return cont()
			}
			s.unread(2)
			first, second = 0, 0
			return fail()
		}
		if first != 0 {
			if in(b, 0x30, 0x39) {
				second = b
				return cont()
			}
			l := first
			first = 0
			offset := 0x41
			if b < 0x7F {
				offset = 0x40
			}
			if in(b, 0x40, 0x7E) || in(b, 0x80, 0xFE) {
				if c := r.gb18030.lookup((l-0x81)*190 + b - offset); c >= 0 {
					return emit(c)
				}
			}
			if isASCIIByte(b) {
				s.unread(1)
			}
			return fail()
		}
		switch {
		case isASCIIByte(b):
			return emit(rune(b))
		case b == 0x80:
			return emit(0x20AC)
		case in(b, 0x81, 0xFE):
			first = b
			return cont()
		}
		return fail()
	}
}

// big5Decoder is the Big5 decoder (§ 12.1.1).
func (r *refTables) big5Decoder() refStep {
	lead := 0
	return func(s *refStream) (int, []rune, int, bool) {
		b := s.read()
		if b == eof {
			if lead != 0 {
				lead = 0
				return fail()
			}
			return done()
		}
		if lead != 0 {
			l := lead
			lead = 0
			offset := 0x62
			if b < 0x7F {
				offset = 0x40
			}
			if in(b, 0x40, 0x7E) || in(b, 0xA1, 0xFE) {
				switch p := (l-0x81)*157 + b - offset; p {
				case 1133:
					return emit(0xCA, 0x304)
				case 1135:
					return emit(0xCA, 0x30C)
				case 1164:
					return emit(0xEA, 0x304)
				case 1166:
					return emit(0xEA, 0x30C)
				default:
					if c := r.big5.lookup(p); c >= 0 {
						return emit(c)
					}
				}
			}
			if isASCIIByte(b) {
				s.unread(1)
			}
			return fail()
		}
		switch {
		case isASCIIByte(b):
			return emit(rune(b))
		case in(b, 0x81, 0xFE):
			lead = b
			return cont()
		}
		return fail()
	}
}

// TestReferenceDecoderAgreesWithTheStandardsExamples checks the reference
// itself against examples the Encoding Standard and web-platform-tests give,
// so that a mistake in it cannot hide one in the package.
func TestReferenceDecoderAgreesWithTheStandardsExamples(t *testing.T) {
	r := loadRef(t)
	for _, tc := range []struct {
		name, enc string
		in        []byte
		want      string
		errs      int
	}{
		{"a Shift_JIS pair decodes to its kanji", "shift_jis", []byte{0x88, 0xF3}, "印", 0},
		{"a Shift_JIS lead before an ASCII byte gives the byte back", "shift_jis", []byte{0x81, 0x22}, "\uFFFD\"", 1},
		{"a user-defined Shift_JIS pair decodes to the private use area", "shift_jis", []byte{0xF0, 0x40}, "\uE000", 0},
		{"an EUC-JP 0x8F triple decodes through JIS X 0212", "euc-jp", []byte{0x8F, 0xB0, 0xA1}, "丂", 0},
		{"ISO-2022-JP's Roman set maps 5C and 7E away from ASCII", "iso-2022-jp", []byte("\x1B(J\x5C\x7E"), "¥‾", 0},
		{"two ISO-2022-JP escapes in a row are an error", "iso-2022-jp", []byte("\x1b(B\x1b(BP"), "\uFFFDP", 1},
		{"an ISO-2022-JP escape error gives back the byte after ESC", "iso-2022-jp", []byte{0x1b, 0x24, 0x50}, "\uFFFD$P", 1},
		{"ISO-2022-JP SO and SI are errors", "iso-2022-jp", []byte{0x0D, 0x0E, 0x0F, 0x10}, "\x0D\uFFFD\uFFFD\x10", 2},
		{"a Katakana escape then a multibyte escape is one error", "iso-2022-jp", []byte{0x1b, 0x28, 0x49, 0x1b, 0x24, 0x40, 0x50, 0x50}, "\uFFFD佩", 1},
		{"the GB18030 four-byte form of U+FFFD is text", "gb18030", []byte{0x84, 0x31, 0xA4, 0x37}, "\uFFFD", 0},
		{"a GB18030 four-byte sequence maps through the ranges", "gb18030", []byte{0x81, 0x30, 0x81, 0x30}, "\u0080", 0},
		{"the GB18030 ranges special case 81 35 F4 37 is U+E7C7", "gb18030", []byte{0x81, 0x35, 0xF4, 0x37}, "\uE7C7", 0},
		{"a GB18030 supplementary sequence", "gb18030", []byte{0x90, 0x30, 0x81, 0x30}, "\U00010000", 0},
		{"a Big5 pair that is two code points", "big5", []byte{0x88, 0x62}, "\u00CA\u0304", 0},
		{"an EUC-KR pair", "euc-kr", []byte{0xB0, 0xA1}, "가", 0},
		{"windows-1252 keeps its C1 byte 81", "windows-1252", []byte{0x81, 0x80}, "\u0081€", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := r.decode(tc.enc, tc.in)
			if got != tc.want || len(errs) != tc.errs {
				t.Errorf("reference %s(% X) = %+q with %d errors, want %+q with %d", tc.enc, tc.in, got, len(errs), tc.want, tc.errs)
			}
		})
	}
}
