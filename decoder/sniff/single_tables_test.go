package sniff

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/internal/vectors"
)

// writeSingleTables makes TestSingleByteTables write single_tables.go
// instead of checking it (go generate runs it so).
var writeSingleTables = flag.Bool("write-single-tables", false, "write single_tables.go from decoder/charset instead of checking it")

const singleTablesFile = "single_tables.go"

// singleNames are the candidates scored by byte table: the single-byte
// ones (windows-1258 for text that needs no composing).
func singleNames() []string {
	var names []string
	for _, e := range candidateList {
		if e.cjk == noCJK {
			names = append(names, e.name)
		}
	}
	return names
}

// alphaOf are the indexes in alphaLangs of the languages name writes, in
// the order candidates() gives them.
func alphaOf(name string) []int {
	var out []int
	for i := range alphaLangs {
		if slices.Contains(alphaLangs[i].charsets, name) {
			out = append(out, i)
		}
	}
	return out
}

// alphabetSym is the symbol of r in alphaLangs[i], found in its alphabet
// string: the rune's index plus one, 0 when absent. It is the truth that
// the generated letters and symbols (and find, which reads them) are held
// to.
func alphabetSym(i int, r rune) uint8 {
	for k, a := range []rune(alphaLangs[i].alphabet) {
		if a == r {
			return uint8(k + 1)
		}
	}
	return 0
}

// deriveASCII is what every single-byte candidate makes of the ASCII bytes.
func deriveASCII() (glyphs [0x80]glyph, syms [len(alphaLangs)][0x80]uint8) {
	for b := range 0x80 {
		glyphs[b] = glyphOf(rune(b))
		if glyphs[b].flags&fWord != 0 {
			for i := range alphaLangs {
				syms[i][b] = alphabetSym(i, glyphs[b].lower)
			}
		}
	}
	return glyphs, syms
}

// deriveSingle asks decoder/charset what the encoding makes of each byte
// 0x80..0xFF: one decode of the 128 bytes, each one character or one
// U+FFFD and one Invalid where the encoding leaves it unassigned.
func deriveSingle(name string) *singleByte {
	c := charset.MustLookup(name)
	alpha := alphaOf(name)
	sb := &singleByte{syms: make([][0x100]uint8, len(alpha))}
	_, ascii := deriveASCII()
	for k, i := range alpha {
		copy(sb.syms[k][:0x80], ascii[i][:])
	}
	var high [0x80]byte
	for b := range high {
		high[b] = byte(0x80 + b)
	}
	text, bad := c.Decode(high[:])
	runes := []rune(text)
	for h := range 0x80 {
		if len(runes) == 0x80 {
			sb.runes[h] = runes[h]
			sb.valid[h] = !slices.ContainsFunc(bad, func(x charset.Invalid) bool { return x.Offset <= h && h < x.Offset+x.Len })
		} else { // not one character a byte: decode byte by byte
			t, bad := c.Decode([]byte{byte(0x80 + h)})
			r, size := utf8.DecodeRuneInString(t)
			sb.runes[h], sb.valid[h] = r, len(bad) == 0 && size == len(t)
		}
		g := glyphOf(sb.runes[h])
		sb.glyphs[h] = g
		if g.flags&fWord != 0 {
			for k, i := range alpha {
				sb.syms[k][0x80+h] = alphabetSym(i, g.lower)
			}
		}
	}
	return sb
}

// deriveSameReading is sameReading as decoder/charset's decoders make it.
func deriveSameReading() *[0x80][len(candidateList)]uint32 {
	var runes [len(candidateList)]*singleByte
	for i, e := range candidateList {
		if e.cjk == noCJK {
			runes[i] = deriveSingle(e.name)
		}
	}
	var t [0x80][len(candidateList)]uint32
	for h := range 0x80 {
		for i, a := range runes {
			if a == nil || !a.valid[h] {
				continue
			}
			for j, b := range runes {
				if b != nil && b.valid[h] && b.runes[h] == a.runes[h] {
					t[h][i] |= 1 << j
				}
			}
		}
	}
	return &t
}

func TestSingleByteTables(t *testing.T) {
	if *writeSingleTables {
		src, err := generateSingleTables()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(singleTablesFile, src, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", singleTablesFile, len(src))
		return
	}
	stale := "single_tables.go is stale: run go generate ./decoder/sniff"
	t.Run("the ASCII tables are what every candidate makes of ASCII", func(t *testing.T) {
		glyphs, syms := deriveASCII()
		if glyphs != asciiGlyphs {
			t.Error("asciiGlyphs differ from glyphOf: " + stale)
		}
		if syms != asciiSyms {
			t.Error("asciiSyms differ from the alphabets: " + stale)
		}
	})
	t.Run("the letters are each alphabet's, and find agrees with the alphabet", func(t *testing.T) {
		for i := range alphaLangs {
			if !slices.Equal(alphaLetters[i], []rune(alphaLangs[i].alphabet)) {
				t.Errorf("%s: alphaLetters differ from the alphabet: %s", alphaLangs[i].name, stale)
			}
			l := langOf(i)
			for r := range rune(0x3000) { // find is given the lower case of word runes
				if g := glyphOf(r); g.flags&fWord != 0 {
					if got, want := l.find(g.lower), alphabetSym(i, g.lower); got != want {
						t.Fatalf("%s: find(%U) = %d, the alphabet says %d", alphaLangs[i].name, g.lower, got, want)
					}
				}
			}
			if got, want := l.size(), utf8.RuneCountInString(alphaLangs[i].alphabet)+1; got != want {
				t.Errorf("%s: size %d, want %d", alphaLangs[i].name, got, want)
			}
		}
	})
	for _, name := range singleNames() {
		t.Run(name+"'s table holds what decoder/charset decodes each high byte to", func(t *testing.T) {
			got, want := singleTable(name), deriveSingle(name)
			if got == nil {
				t.Fatalf("no table for %s: %s", name, stale)
			}
			for h := range 0x80 {
				if got.runes[h] != want.runes[h] || got.valid[h] != want.valid[h] {
					t.Errorf("byte %02X: table %U (valid %v), decoder/charset %U (valid %v): %s", 0x80+h, got.runes[h], got.valid[h], want.runes[h], want.valid[h], stale)
				}
			}
			if got.glyphs != want.glyphs || !reflect.DeepEqual(got.syms, want.syms) {
				t.Errorf("glyphs or symbols differ from glyphOf and the alphabets: %s", stale)
			}
		})
	}
	t.Run("sameReading pairs the candidates that decode each high byte alike", func(t *testing.T) {
		if want := deriveSameReading(); sameReading != *want {
			t.Error("sameReading differs from decoder/charset: " + stale)
		}
	})
	t.Run("every candidate scored by byte table has one, and only those", func(t *testing.T) {
		for _, c := range candidates.Get() {
			wantTable := c.cjk == noCJK && !c.anyLanguage
			if (c.sb != nil) != wantTable {
				t.Errorf("%s: table %v, want one %v", c.name, c.sb != nil, wantTable)
			}
			if c.sb != nil && len(c.sb.syms) != len(c.alpha) {
				t.Errorf("%s: %d symbol rows for %d languages", c.name, len(c.sb.syms), len(c.alpha))
			}
		}
	})
}

// TestWindows1252TableMatchesTheWHATWGIndex checks one table against the
// Encoding Standard's index itself rather than decoder/charset.
func TestWindows1252TableMatchesTheWHATWGIndex(t *testing.T) {
	f, err := os.Open(vectors.Path(t, "whatwg-encoding/index-windows-1252.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sb := singleTable("windows-1252")
	seen := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		p, err1 := strconv.Atoi(fields[0])
		c, err2 := strconv.ParseUint(strings.TrimPrefix(fields[1], "0x"), 16, 32)
		if err1 != nil || err2 != nil || p < 0 || p >= 0x80 {
			t.Fatalf("bad index line %q", line)
		}
		seen++
		if !sb.valid[p] || sb.runes[p] != rune(c) {
			t.Errorf("byte %02X: table %U (valid %v), index %U", 0x80+p, sb.runes[p], sb.valid[p], c)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if seen != 0x80 {
		t.Errorf("the index maps %d bytes, want all 128", seen)
	}
}

// generateSingleTables writes the source of single_tables.go.
func generateSingleTables() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by TestSingleByteTables -write-single-tables (go generate) from decoder/charset; DO NOT EDIT.\n\npackage sniff\n\n")
	glyphs, syms := deriveASCII()
	b.WriteString("// asciiGlyphs is glyphOf of each ASCII byte.\nvar asciiGlyphs = [0x80]glyph{\n")
	writeGlyphs(&b, glyphs[:])
	b.WriteString("}\n\n// asciiSyms[i][b] is ASCII byte b's symbol in alphaLangs[i].\nvar asciiSyms = [len(alphaLangs)][0x80]uint8{\n")
	for i := range syms {
		fmt.Fprintf(&b, "// %s\n{", alphaLangs[i].name)
		writeUint8s(&b, syms[i][:])
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n// alphaLetters[i] are the letters of alphaLangs[i].alphabet as runes.\nvar alphaLetters = [len(alphaLangs)][]rune{\n")
	for i := range alphaLangs {
		fmt.Fprintf(&b, "// %s\n{", alphaLangs[i].name)
		for k, r := range []rune(alphaLangs[i].alphabet) {
			if k%8 == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%#04x, ", r)
		}
		b.WriteString("\n},\n")
	}
	b.WriteString("}\n\n// sameReading[h][i] is the set of the candidates (bit j for\n// candidateList[j]) that decode the byte 0x80+h to the rune candidateList[i]\n// decodes it to, the empty set where candidate i leaves it unassigned or\n// decodes with no byte table.\nvar sameReading = [0x80][len(candidateList)]uint32{\n")
	for h, row := range deriveSameReading() {
		fmt.Fprintf(&b, "// %02X\n{", 0x80+h)
		for _, m := range row {
			fmt.Fprintf(&b, "%#x, ", m)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n// singleTable is the byte table of the single-byte candidate name, or nil.\nfunc singleTable(name string) *singleByte {\nswitch name {\n")
	names := singleNames()
	for _, n := range names {
		fmt.Fprintf(&b, "case %q:\nreturn &%s\n", n, tableVar(n))
	}
	b.WriteString("}\nreturn nil\n}\n")
	for _, n := range names {
		sb := deriveSingle(n)
		fmt.Fprintf(&b, "\nvar %s = singleByte{\nvalid: [0x80]bool{", tableVar(n))
		for h, v := range sb.valid {
			if h%16 == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%v, ", v)
		}
		b.WriteString("\n},\nrunes: [0x80]rune{")
		for h, r := range sb.runes {
			if h%8 == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%#04x, ", r)
		}
		b.WriteString("\n},\nglyphs: [0x80]glyph{\n")
		writeGlyphs(&b, sb.glyphs[:])
		b.WriteString("},\nsyms: [][0x100]uint8{\n")
		for k, i := range alphaOf(n) {
			fmt.Fprintf(&b, "// %s\n{", alphaLangs[i].name)
			writeUint8s(&b, sb.syms[k][:])
			b.WriteString("},\n")
		}
		b.WriteString("},\n}\n")
	}
	return format.Source(b.Bytes())
}

func writeGlyphs(b *bytes.Buffer, gs []glyph) {
	for i, g := range gs {
		if i%4 == 0 && i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "{%#04x, %d, %s}, ", g.lower, g.flags, strconv.FormatFloat(float64(g.other), 'g', -1, 32))
	}
	b.WriteString("\n")
}

func writeUint8s(b *bytes.Buffer, xs []uint8) {
	for i, x := range xs {
		if i%16 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%d, ", x)
	}
	b.WriteString("\n")
}

// tableVar is the Go name of name's table: "koi8-r" is sbKoi8R.
func tableVar(name string) string {
	var b strings.Builder
	b.WriteString("sb")
	up := true
	for _, r := range name {
		switch {
		case r == '-' || r == '_':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// The byte table scores windows-1258 text only without its combining
// marks: every other character it decodes to has canonical combining
// class 0 and passes NFC's quick check, so that text of them is in NFC
// (Unicode Standard Annex #15 § 9) and composing it changes nothing.
func TestWindows1258ComposesOnlyItsMarks(t *testing.T) {
	sb := singleTable("windows-1258")
	marks := 0
	for h, r := range sb.runes {
		s := string(r)
		inNFC := norm.NFC.PropertiesString(s).CCC() == 0 && norm.NFC.QuickSpanString(s) == len(s)
		if isCombining(r) {
			marks++
		}
		if inNFC == isCombining(r) {
			t.Errorf("byte %02X, %U: in NFC alone %v, a combining mark %v", 0x80+h, r, inNFC, isCombining(r))
		}
	}
	if marks != 5 {
		t.Errorf("%d combining marks, want windows-1258's five tone marks", marks)
	}
}

// Where NFC leaves windows-1258's decoding as it is (a tone mark after a
// letter it does not compose with), its byte table scores the samples,
// marks and all, and must score them as the decoding is scored; where NFC
// composes, only the decoding may.
func TestMarksThatComposeWithNothingAreScoredByTheTable(t *testing.T) {
	var c *candidate
	for _, x := range candidates.Get() {
		if x.nfc {
			c = x
		}
	}
	marks := []byte{0xCC, 0xD2, 0xDE, 0xEC, 0xF2}
	rng := rand.New(rand.NewPCG(5, 8))
	var inputs [][][]byte
	for b := range 256 {
		for _, m := range marks {
			inputs = append(inputs, [][]byte{{byte(b), m}}, [][]byte{{'x', byte(b), m, 'y'}})
		}
	}
	for range 20_000 {
		s := make([]byte, 2+rng.IntN(8))
		for i := range s {
			s[i] = byte(0x80 + rng.IntN(0x80))
		}
		s[rng.IntN(len(s))] = marks[rng.IntN(len(marks))]
		inputs = append(inputs, [][]byte{s}, [][]byte{s[:1], s[1:]})
	}
	for _, ev := range []Evidence{{}, {AcceptLanguage: "vi"}, {AcceptLanguage: "de,fr;q=0.5"}} {
		pri := priorsFor(ev)
		var sc scratch
		stable, composing := 0, 0
		for _, samples := range inputs {
			key, ok := c.appendKey(nil, samples)
			if !ok || !slices.ContainsFunc(samples, c.hasMark) {
				continue
			}
			sc.resetTexts()
			sc.setPriors(pri)
			got, gotClean, byTable := c.scoreSingle(samples, pri, &sc, negInf)
			sc.resetTexts()
			want, wantClean := c.evaluateDecoded(samples, pri, &sc, negInf)
			text := string(key)
			// A text NFC leaves as it is may still be left to the
			// decoding: when no language of c knows its letters.
			switch nfcStable := norm.NFC.String(text) == text; {
			case !nfcStable && byTable:
				t.Fatalf("% x: NFC composes %+q, yet the table scores it", samples, text)
			case byTable && (got != want || gotClean != wantClean):
				t.Fatalf("% x (%+q): the table scores %v (clean %v), the decoding %v (clean %v)", samples, text, got, gotClean, want, wantClean)
			case byTable:
				stable++
			default:
				composing++
			}
		}
		if stable < 1000 || composing < 1000 {
			t.Errorf("%+v: %d inputs scored by the table, %d composed: too few to tell", ev, stable, composing)
		}
	}
}

// highLetters asks about each distinct byte 0x80 and up once, and
// laneLetters about each byte of a run: both must name the lanes whose
// language has a letter of the samples, and whether there is one.
func TestHighLettersNameTheLanesKnowingALetter(t *testing.T) {
	rows := loadRows(t, corpusPath)
	rng := rand.New(rand.NewPCG(2, 11))
	var inputs [][][]byte
	for _, r := range rows {
		inputs = append(inputs, [][]byte{r.raw}, [][]byte{r.raw, []byte(r.Text)})
	}
	for range 2000 {
		s := make([]byte, 1+rng.IntN(12))
		for i := range s {
			s[i] = byte(rng.IntN(256))
		}
		inputs = append(inputs, [][]byte{s}, [][]byte{s[:len(s)/2], s[len(s)/2:]})
	}
	var sc scratch
	for _, c := range candidates.Get() {
		if c.sb == nil {
			continue
		}
		for _, samples := range inputs {
			var want uint16
			for _, s := range samples {
				for _, b := range s {
					if b < 0x80 || !isWordRune(c.sb.runes[b-0x80]) {
						continue
					}
					want |= hasHighLetter
					for k, li := range c.alpha {
						if alphabetSym(li, unicode.ToLower(c.sb.runes[b-0x80])) != 0 {
							want |= 1 << k
						}
					}
				}
			}
			sc.resetTexts()
			if _, clean := sc.classOf(c, samples); !clean {
				continue
			}
			var runs uint16
			for _, s := range samples {
				runs |= c.laneLetters(s)
			}
			if got := sc.highLetters(c); got != want || runs != want {
				t.Fatalf("% x in %s: highLetters %016b, laneLetters %016b, want %016b", samples, c.name, got, runs, want)
			}
		}
	}
}

// symCache answers as find does, also once letters that hash alike have
// pushed each other out of its table.
func TestSymCacheAnswersAsFind(t *testing.T) {
	var c symCache
	for pass := range 2 {
		for r := range rune(0x3000) {
			g := glyphOf(r)
			if g.flags&fWord == 0 {
				continue
			}
			for i := range alphaLangs {
				l := langOf(i)
				if got, want := c.find(&l, g.lower), l.find(g.lower); got != want {
					t.Fatalf("pass %d, %s: symCache says %d for %U, find %d", pass, l.name, got, g.lower, want)
				}
			}
		}
	}
}
