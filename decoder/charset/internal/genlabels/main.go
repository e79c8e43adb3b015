// Command genlabels writes lookup_labels.go: every label Lookup accepts,
// lower-cased and sorted, each with the name and the x/text encoding that
// golang.org/x/text/encoding/htmlindex and then .../ianaindex give it, and
// the switch that finds a label's place in that array.
//
// Lookup used to ask those two packages at run time, which cost every CGI
// process start-up their indexes whether it looked a label up or not: the
// maps they build at init (ianaindex ~55 kB, htmlindex ~14 kB) and the
// golang.org/x/text/language packages htmlindex pulls in. The generated
// array is static data, and labels and encodings are found through
// switches, so nothing of it runs at init. A switch on strings compiles to a
// jump on the length and a few word compares: ~2 ns, against ~40 ns for a
// binary search of the array and ~20 ns for the maps.
//
// Neither package exports its label list, so the labels are read from their
// source (htmlindex's nameMap, ianaindex's ianaAliases, as `go list` finds
// them in the module cache); what each label names is then asked of the
// packages themselves, exactly as Lookup did:
//
//  1. htmlindex.Get(label), else ianaindex.IANA.Encoding(label), refusing
//     a label IANA registers but x/text does not implement (nil Encoding);
//  2. the name htmlindex.Name gives the encoding, else ianaindex.IANA.Name
//     lower-cased.
//
// A label both packages refuse is left out. Every encoding found must be
// one of the package-level variables in candidates (compared by identity),
// or generation fails.
//
// Run from decoder/charset:  go generate  (go run ./internal/genlabels [-o file])
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

// candidate is an encoding the table may name: the Go expression that
// yields it in package charset, the constant that stands for it, and the
// value itself, which found encodings are compared with.
type candidate struct {
	ident, expr string
	enc         encoding.Encoding
}

func cand(expr string, enc encoding.Encoding) candidate {
	return candidate{"enc" + expr[strings.IndexByte(expr, '.')+1:], expr, enc}
}

// candidates are x/text's exported encodings. UTF-16 has no variable, only
// a constructor (a value type, comparable); ianaindex's US-ASCII is
// unexported: package charset has its byte-for-byte twin, usASCII (ascii.go).
var candidates = []candidate{
	cand("unicode.UTF8", unicode.UTF8),
	{"encUTF16BE", "unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
	{"encUTF16LE", "unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
	{"encUTF16", "unicode.UTF16(unicode.BigEndian, unicode.UseBOM)", unicode.UTF16(unicode.BigEndian, unicode.UseBOM)},
	{"encUSASCII", "usASCII", ianaEncoding("US-ASCII")},
	cand("encoding.Replacement", encoding.Replacement),
	cand("charmap.CodePage037", charmap.CodePage037),
	cand("charmap.CodePage437", charmap.CodePage437),
	cand("charmap.CodePage850", charmap.CodePage850),
	cand("charmap.CodePage852", charmap.CodePage852),
	cand("charmap.CodePage855", charmap.CodePage855),
	cand("charmap.CodePage858", charmap.CodePage858),
	cand("charmap.CodePage860", charmap.CodePage860),
	cand("charmap.CodePage862", charmap.CodePage862),
	cand("charmap.CodePage863", charmap.CodePage863),
	cand("charmap.CodePage865", charmap.CodePage865),
	cand("charmap.CodePage866", charmap.CodePage866),
	cand("charmap.CodePage1047", charmap.CodePage1047),
	cand("charmap.CodePage1140", charmap.CodePage1140),
	cand("charmap.ISO8859_1", charmap.ISO8859_1),
	cand("charmap.ISO8859_2", charmap.ISO8859_2),
	cand("charmap.ISO8859_3", charmap.ISO8859_3),
	cand("charmap.ISO8859_4", charmap.ISO8859_4),
	cand("charmap.ISO8859_5", charmap.ISO8859_5),
	cand("charmap.ISO8859_6", charmap.ISO8859_6),
	cand("charmap.ISO8859_6E", charmap.ISO8859_6E),
	cand("charmap.ISO8859_6I", charmap.ISO8859_6I),
	cand("charmap.ISO8859_7", charmap.ISO8859_7),
	cand("charmap.ISO8859_8", charmap.ISO8859_8),
	cand("charmap.ISO8859_8E", charmap.ISO8859_8E),
	cand("charmap.ISO8859_8I", charmap.ISO8859_8I),
	cand("charmap.ISO8859_9", charmap.ISO8859_9),
	cand("charmap.ISO8859_10", charmap.ISO8859_10),
	cand("charmap.ISO8859_13", charmap.ISO8859_13),
	cand("charmap.ISO8859_14", charmap.ISO8859_14),
	cand("charmap.ISO8859_15", charmap.ISO8859_15),
	cand("charmap.ISO8859_16", charmap.ISO8859_16),
	cand("charmap.KOI8R", charmap.KOI8R),
	cand("charmap.KOI8U", charmap.KOI8U),
	cand("charmap.Macintosh", charmap.Macintosh),
	cand("charmap.MacintoshCyrillic", charmap.MacintoshCyrillic),
	cand("charmap.Windows874", charmap.Windows874),
	cand("charmap.Windows1250", charmap.Windows1250),
	cand("charmap.Windows1251", charmap.Windows1251),
	cand("charmap.Windows1252", charmap.Windows1252),
	cand("charmap.Windows1253", charmap.Windows1253),
	cand("charmap.Windows1254", charmap.Windows1254),
	cand("charmap.Windows1255", charmap.Windows1255),
	cand("charmap.Windows1256", charmap.Windows1256),
	cand("charmap.Windows1257", charmap.Windows1257),
	cand("charmap.Windows1258", charmap.Windows1258),
	cand("charmap.XUserDefined", charmap.XUserDefined),
	cand("japanese.EUCJP", japanese.EUCJP),
	cand("japanese.ISO2022JP", japanese.ISO2022JP),
	cand("japanese.ShiftJIS", japanese.ShiftJIS),
	cand("korean.EUCKR", korean.EUCKR),
	cand("simplifiedchinese.GB18030", simplifiedchinese.GB18030),
	cand("simplifiedchinese.GBK", simplifiedchinese.GBK),
	cand("simplifiedchinese.HZGB2312", simplifiedchinese.HZGB2312),
	cand("traditionalchinese.Big5", traditionalchinese.Big5),
}

func ianaEncoding(name string) encoding.Encoding {
	e, err := ianaindex.IANA.Encoding(name)
	if err != nil || e == nil {
		log.Fatalf("ianaindex has no %s: %v", name, err)
	}
	return e
}

// resolve is what Lookup did with a trimmed label before the table.
func resolve(label string) (name string, enc encoding.Encoding, ok bool) {
	enc, err := htmlindex.Get(label)
	if err != nil {
		enc, err = ianaindex.IANA.Encoding(label)
		if err != nil || enc == nil {
			return "", nil, false
		}
	}
	name, err = htmlindex.Name(enc)
	if err != nil {
		name, _ = ianaindex.IANA.Name(enc)
		name = strings.ToLower(name)
	}
	return name, enc, true
}

type entry struct {
	label, name string
	c           *candidate
}

func main() {
	out := flag.String("o", "lookup_labels.go", "file to write")
	flag.Parse()
	html := mapKeys("golang.org/x/text/encoding/htmlindex", "nameMap")
	iana := mapKeys("golang.org/x/text/encoding/ianaindex", "ianaAliases")
	// The keys must be what the packages answer to, or the wrong map was read.
	for _, k := range html {
		if _, err := htmlindex.Get(k); err != nil {
			log.Fatalf("htmlindex.Get(%q) from its own nameMap: %v", k, err)
		}
	}
	for _, k := range iana {
		if _, err := ianaindex.IANA.Encoding(k); err != nil {
			log.Fatalf("ianaindex.IANA.Encoding(%q) from its own ianaAliases: %v", k, err)
		}
	}
	byLabel := map[string]entry{}
	for _, k := range append(html, iana...) {
		if strings.TrimSpace(k) != k || k == "" {
			log.Fatalf("label %q has white space around it: Lookup trims it away", k)
		}
		l := strings.ToLower(k)
		// Lookup searches the lower-cased label: that is sound only if
		// case never changes the answer. htmlindex lower-cases; ianaindex
		// tries the label as given first, so a mixed-case key must mean
		// what its lower-case form means.
		n1, e1, ok1 := resolve(k)
		n2, e2, ok2 := resolve(l)
		if n1 != n2 || e1 != e2 || ok1 != ok2 {
			log.Fatalf("label %q resolves to %q %v %v, its lower case %q to %q %v %v", k, n1, e1, ok1, l, n2, e2, ok2)
		}
		if !ok2 {
			continue
		}
		c := find(e2)
		if c == nil {
			log.Fatalf("label %q: encoding %v (%T) is none of the candidates", l, e2, e2)
		}
		byLabel[l] = entry{l, n2, c}
	}
	entries := make([]entry, 0, len(byLabel))
	used := map[*candidate]bool{}
	for _, e := range byLabel {
		entries = append(entries, e)
		used[e.c] = true
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].label < entries[j].label })

	var b bytes.Buffer
	b.WriteString("// Code generated by internal/genlabels from x/text's htmlindex and ianaindex; DO NOT EDIT.\n\npackage charset\n\n")
	imports := map[string]bool{"golang.org/x/text/encoding": true}
	for c := range used {
		if pkg, _, ok := strings.Cut(c.expr, "."); ok && pkg != "encoding" {
			imports["golang.org/x/text/encoding/"+pkg] = true
		}
	}
	b.WriteString("import (\n")
	for _, p := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&b, "%q\n", p)
	}
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "// labels are the %d labels Lookup accepts, lower-cased and in order, each\n", len(entries))
	b.WriteString("// with the name and the encoding htmlindex, or else ianaindex, gives it.\n")
	b.WriteString("// Static data (an array of strings and small integers, not a map): nothing\n// is built at init.\n")
	b.WriteString("var labels = [...]labelEntry{\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "{%q, %q, %s},\n", e.label, e.name, e.c.ident)
	}
	b.WriteString("}\n\n")
	b.WriteString("// labelIndex is the index in labels of a lower-cased label, or -1. A switch\n")
	b.WriteString("// compiles to a jump on the length and a few word compares: ~2 ns, where a\n")
	b.WriteString("// binary search of labels takes ~40.\n")
	b.WriteString("func labelIndex(label string) int {\nswitch label {\n")
	for i, e := range entries {
		fmt.Fprintf(&b, "case %q:\nreturn %d\n", e.label, i)
	}
	b.WriteString("}\nreturn -1\n}\n\n")
	b.WriteString("// The encodings labels name.\nconst (\n")
	first := true
	for i := range candidates {
		c := &candidates[i]
		if !used[c] {
			continue
		}
		if first {
			fmt.Fprintf(&b, "%s encID = iota\n", c.ident)
			first = false
		} else {
			fmt.Fprintf(&b, "%s\n", c.ident)
		}
	}
	b.WriteString(")\n\n")
	b.WriteString("// encoding is the x/text encoding id stands for. A switch, not an array of\n")
	b.WriteString("// encoding.Encoding: x/text's encodings are variables of other packages,\n")
	b.WriteString("// which an array would copy at init.\n")
	b.WriteString("func (id encID) encoding() encoding.Encoding {\nswitch id {\n")
	for i := range candidates {
		c := &candidates[i]
		if used[c] {
			fmt.Fprintf(&b, "case %s:\nreturn %s\n", c.ident, c.expr)
		}
	}
	b.WriteString("}\nreturn nil\n}\n\n")
	b.WriteString("// asciiCompatible reports whether every byte 00-7F standing alone decodes\n")
	b.WriteString("// in id's encoding to the same code point or is reported invalid, and the\n")
	b.WriteString("// printable ones in a row decode to themselves. Lookup refuses the rest:\n")
	b.WriteString("// in EBCDIC, 4C is \"<\", so a form's ASCII bytes would turn into other\n")
	b.WriteString("// ASCII after the gateway split and checked them.\n")
	var incompatible []string
	for i := range candidates {
		c := &candidates[i]
		if used[c] && !asciiCompatible(c.enc) {
			incompatible = append(incompatible, c.ident)
		}
	}
	if len(incompatible) == 0 {
		// Never so while the table names UTF-16: a switch needs a case.
		log.Fatal("every encoding is ASCII-compatible: the test in asciiCompatible is broken")
	}
	fmt.Fprintf(&b, "func (id encID) asciiCompatible() bool {\nswitch id {\ncase %s:\nreturn false\n}\nreturn true\n}\n", strings.Join(incompatible, ", "))
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("%v\n%s", err, b.Bytes())
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d labels (htmlindex %d keys, ianaindex %d), %d encodings", *out, len(entries), len(html), len(iana), len(used))
}

// asciiCompatible is the test behind encID.asciiCompatible, made on x/text's
// encoding as it is: a byte standing alone decodes to itself or to U+FFFD
// (ISO-2022-JP's SO, SI and ESC, a lone byte of UTF-16), and the printable
// bytes in a row decode to themselves (not UTF-16's pairs, not the one
// U+FFFD of the replacement encoding). The tests of package charset check
// more, on the encodings with the WHATWG fixes, and that Lookup refuses
// exactly the encodings that fail.
func asciiCompatible(e encoding.Encoding) bool {
	var printable []byte
	for b := range 0x80 {
		got, err := e.NewDecoder().Bytes([]byte{byte(b)})
		if err != nil || string(got) != string(rune(b)) && string(got) != "\uFFFD" {
			return false
		}
		if b >= ' ' && b < 0x7F {
			printable = append(printable, byte(b))
		}
	}
	got, err := e.NewDecoder().Bytes(printable)
	return err == nil && bytes.Equal(got, printable)
}

func find(e encoding.Encoding) *candidate {
	for i := range candidates {
		if candidates[i].enc == e {
			return &candidates[i]
		}
	}
	return nil
}

// mapKeys reads the string keys of the map literal assigned to the
// package-level variable name in the Go package pkg.
func mapKeys(pkg, name string) []string {
	dir, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		log.Fatalf("go list %s: %v", pkg, err)
	}
	files, err := filepath.Glob(filepath.Join(strings.TrimSpace(string(dir)), "*.go"))
	if err != nil {
		log.Fatal(err)
	}
	var keys []string
	found := false
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			log.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if id.Name != name || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.CompositeLit)
					if !ok {
						log.Fatalf("%s.%s is not a composite literal", pkg, name)
					}
					found = true
					for _, elt := range lit.Elts {
						kv, ok := elt.(*ast.KeyValueExpr)
						bl, ok2 := kv.Key.(*ast.BasicLit)
						if !ok || !ok2 || bl.Kind != token.STRING {
							log.Fatalf("%s.%s: key %v is not a string literal", pkg, name, elt)
						}
						k, err := strconv.Unquote(bl.Value)
						if err != nil {
							log.Fatal(err)
						}
						keys = append(keys, k)
					}
				}
			}
		}
	}
	if !found || len(keys) == 0 {
		log.Fatalf("no map literal %s in %s", name, pkg)
	}
	return keys
}
