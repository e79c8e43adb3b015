package search

import (
	"math/rand/v2"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"
)

// textTokensAgree runs two tokenizers over doc in step and reports the
// first text token where tokenText differs from the tokenizer's own Text,
// which decodes with x/net/html's entity table.
func textTokensAgree(t *testing.T, doc string) {
	t.Helper()
	want := xhtml.NewTokenizer(strings.NewReader(doc))
	got := newTextTokenizer(strings.NewReader(doc))
	for i := 0; ; i++ {
		wt := want.Next()
		gt, _ := got.Next()
		if wt != gt {
			t.Fatalf("%q: token %d is %v in one tokenizer and %v in the other", doc, i, wt, gt)
		}
		switch gt {
		case xhtml.ErrorToken:
			return
		case xhtml.TextToken:
			if w, g := string(want.Text()), got.Text(); w != g {
				t.Fatalf("%q: text token %d is %q by Text and %q by tokenText", doc, i, w, g)
			}
		}
	}
}

// Documents that take the tokenizer through each of its text states and
// the character reference rules where decoders usually part ways.
var htmlTextCases = []string{
	"caf&eacute; cr&egrave;me &amp; &lt;b&gt;",
	"&amp &ampx &notit; &notin; &not &#x41; &#65 &#x110000; &#0; &#x80; &#x9F; &#xD800;",
	"&AElig &aelig; &NotNestedGreaterGreater; &nbsp&nbsp; &unknown; & ; &#; &#x;",
	"(&#9) &#9 &#7;&#x; &#X; &#x9 &#09 &#9",
	"&#X00100000100 &#4294967361; &#x110000; &#1114112 &#x10FFFF; &#00000000065",
	"a\r\nb\rc\n\rd",
	"<title>A &amp; B\r\n</title><p>t\x00ext</p>",
	"<textarea>&lt;x&gt;</textarea><script>if (a &lt; b && c) {}</script>",
	"<style>p { content: \"&amp;\" }\x00</style>after &amp;",
	"<script/>x &amp; y</script>z &amp;",
	"<xmp>&amp; stays</xmp>&amp; decoded",
	"<iframe>&amp;</iframe><noembed>&amp;</noembed><noframes>&amp;</noframes><noscript>&amp;</noscript>",
	"<SCRIPT>&amp;</SCRIPT><Style>&amp;</Style>",
	"<plaintext>&amp; to the end </plaintext> &amp;",
	"<script><!--<script>&amp;</script>--></script>&amp;",
	"<p a=/>&amp;</p><br/>&amp;<img src=x />&amp;",
	"<!-- &amp; --><!DOCTYPE html>&amp;<?php &amp; ?>&amp;",
	"<title>unterminated &amp;",
	"<script>unterminated &amp;",
	"印刷 &#x5370;&#21047; &Aring;ngstr&ouml;m",
	"",
}

func TestTokenTextIsTokenizerText(t *testing.T) {
	for _, doc := range htmlTextCases {
		textTokensAgree(t, doc)
	}
}

// Random documents made of the pieces above: tags that open and close the
// raw-text states in every order, references, CR and NUL.
func TestTokenTextIsTokenizerTextOnRandomDocuments(t *testing.T) {
	pieces := []string{
		"<script>", "</script>", "<style>", "</style>", "<title>", "</title>", "<textarea>", "</textarea>",
		"<xmp>", "</xmp>", "<iframe>", "</iframe>", "<noscript>", "</noscript>", "<plaintext>", "<script/>",
		"<p>", "</p>", "<br/>", "<!--", "-->", "<", ">", "</", "&", "&amp;", "&amp", "&lt", "&#", "&#x",
		"&#38;", "&#x26", "&notin", "&noti", ";", "\r", "\r\n", "\n", "\x00", " ", "text", "é", "印刷", "'", "\"", "=",
	}
	r := rand.New(rand.NewPCG(7, 11))
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(24) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		textTokensAgree(t, b.String())
	}
}

func FuzzTokenTextIsTokenizerText(f *testing.F) {
	for _, doc := range htmlTextCases {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) { textTokensAgree(t, doc) })
}

func TestHTMLTextLeavesOutScriptStyleAndTemplate(t *testing.T) {
	tests := []struct {
		name, doc, title, text string
	}{
		{"a title and a body", "<title> A &amp;\n B </title><p>caf&eacute;</p>", "A & B", "   caf\u00e9 "},
		{"script and style content is left out", "<p>a</p><script>b &amp;</script><style>c</style><p>d</p>", "", " a      d "},
		{"a self-closing script still opens a script", "x<script/>y</script>z", "", "x  z"},
		{"template and noscript content is left out", "<template>t</template><noscript>n</noscript>w", "", "    w"},
		{"raw text outside script keeps its references", "<xmp>&amp;</xmp>", "", " &amp; "},
	}
	for _, tt := range tests {
		title, text, err := htmlText([]byte(tt.doc))
		if err != nil || title != tt.title || text != tt.text {
			t.Errorf("%s: htmlText(%q) = %q, %q, %v; want %q, %q", tt.name, tt.doc, title, text, err, tt.title, tt.text)
		}
	}
}
