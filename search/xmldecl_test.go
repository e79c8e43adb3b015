package search

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// xmlDeclPattern is the XML declaration's encoding as a regexp, the
// specification xmlEncoding is held to.
var xmlDeclPattern = regexp.MustCompile(`^<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']`)

func patternEncoding(b []byte) string {
	if m := xmlDeclPattern.FindSubmatch(b); m != nil {
		return string(m[1])
	}
	return ""
}

func TestXMLEncodingIsWhatThePatternFinds(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"a declaration with a version first", `<?xml version="1.0" encoding="ISO-8859-1"?><html>`, "ISO-8859-1"},
		{"single quotes and spaces around the equals sign", "<?xml version='1.0' encoding \t= \n'Shift_JIS' ?>", "Shift_JIS"},
		{"quotes that do not match, as the pattern allows", `<?xml encoding="euc-jp'?>`, "euc-jp"},
		{"no encoding", `<?xml version="1.0"?><p>encoding="big5"</p>`, ""},
		{"the encoding after the declaration's end", `<?xml version="1.0" ?><x encoding="big5">`, ""},
		{"a word ending in encoding is passed over for the attribute after it", `<?xml xencoding="gbk" encoding="big5"?>`, "big5"},
		{"an attribute value holding encoding is passed over", `<?xml note="encoding" encoding="big5"?>`, "big5"},
		{"a label starting with a digit", `<?xml encoding="8859-1"?>`, ""},
		{"an unterminated label", `<?xml encoding="big5`, ""},
		{"a label with every allowed kind of byte", `<?xml encoding="x-Mac_Roman.2-b"?>`, "x-Mac_Roman.2-b"},
		{"no space after <?xml", `<?xmlencoding="big5"?>`, ""},
		{"a vertical tab is not a space", "<?xml\vencoding=\"big5\"?>", ""},
		{"not at the very start", ` <?xml encoding="big5"?>`, ""},
		{"upper-case XML", `<?XML encoding="big5"?>`, ""},
		{"a bad byte before the encoding", "<?xml \xff encoding=\"big5\"?>", "big5"},
		{"empty", ``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := xmlEncoding([]byte(tt.doc)), patternEncoding([]byte(tt.doc))
			if want != tt.want {
				t.Fatalf("the pattern finds %q in %q; the table says %q", want, tt.doc, tt.want)
			}
			if got != want {
				t.Errorf("xmlEncoding(%q) = %q, the pattern finds %q", tt.doc, got, want)
			}
		})
	}
	t.Run("random declarations read as the pattern reads them", func(t *testing.T) {
		// Declarations built part by part, each part picked at random
		// among right and wrong ones: the scan and the pattern must
		// agree on every one, and many hold an encoding.
		parts := [][]string{
			{"<?xml", "<?xml", "<?xml", "<?XML", " <?xml", ""},
			{" ", "\t", "\n", "  ", "\v", ""},
			{"", "", `version="1.0" `, `x="encoding" `, "xencoding='gbk' ", "> ", "\xff "},
			{"encoding", "encoding", "encoding", "Encoding", "_encoding", "encodin"},
			{"", "", " ", "\r\n", "\f", "\v"},
			{"=", "=", "=", "", "=="},
			{"", "", " ", "\t\t"},
			{`"`, `'`, `"`, "", "`"},
			{"big5", "Shift_JIS", "x-mac.roman-2", "8859-1", "", "a b", "é"},
			{`"`, `'`, `"`, "", ">"},
			{"?>", " standalone='yes'?>", "", ">encoding='gbk'"},
		}
		r := rand.New(rand.NewPCG(1, 2))
		matched := 0
		for range 100_000 {
			var doc []byte
			for _, p := range parts {
				doc = append(doc, p[r.IntN(len(p))]...)
			}
			got, want := xmlEncoding(doc), patternEncoding(doc)
			if got != want {
				t.Fatalf("xmlEncoding(%q) = %q, the pattern finds %q", doc, got, want)
			}
			if want != "" {
				matched++
			}
		}
		if matched < 1_000 {
			t.Errorf("only %d of the declarations hold an encoding: the generator tests little", matched)
		}
	})
}
