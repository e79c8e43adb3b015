package bench

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// A site's languages, as GenerateSite mixes them.
const (
	English  = "en"
	German   = "de"
	Japanese = "ja"
)

// SiteDoc is one document GenerateSite wrote.
type SiteDoc struct {
	Path    string // slash-separated, relative to the site's folder
	Lang    string // English, German or Japanese
	Charset string // the WHATWG name of its encoding: utf-8, windows-1252, shift_jis, euc-jp
}

// SiteQuery is one query of the side-by-side search benchmark.
type SiteQuery struct {
	Text string // as typed into a search box
	Kind string // what it tests, for the tables
	Lang string
}

// MissingWord occurs in no generated document.
const MissingWord = "zqxjvonkt"

// SiteQueries are the queries both engines answer: English words, German
// words with umlauts and ß (alone and inside compounds), phrases, Japanese
// words that occur inside longer unsegmented runs (and two that also
// stand alone, between full-width spaces), and a word that occurs
// nowhere.
var SiteQueries = []SiteQuery{
	{"printing", "English word", English},
	{"paper quality", "two English words", English},
	{`"offset printing"`, "English phrase", English},
	{"Größe", "German word, umlaut and ß", German},
	{"Bücher", "German word, umlaut", German},
	{"Straße", "German word, ß", German},
	{"Haltestelle", "German compound part", German},
	{`"für Bücher"`, "German phrase", German},
	{"印刷", "Japanese, inside runs only", Japanese},
	{"サービス", "Japanese katakana, inside runs only", Japanese},
	{"活版印刷", "Japanese, inside runs only", Japanese},
	{"検索", "Japanese, in runs and alone", Japanese},
	{"東京", "Japanese, in runs and alone", Japanese},
	{MissingWord, "in no document", English},
}

// Target words, each put into a share of the documents of its language
// (per mille), so that a query matches a bounded share of the site.
var (
	englishTargets = []target{{"printing", 40}, {"paper", 60}, {"quality", 60}, {"offset printing", 15}, {"offset", 20}}
	germanTargets  = []target{{"Größe", 40}, {"Bücher", 40}, {"Straße", 30}, {"Straßenbahnhaltestelle", 20},
		{"Bücherregal", 20}, {"Größenordnung", 20}, {"für Bücher", 15}}
	// Japanese targets go inside a sentence: never alone between spaces.
	japaneseTargets = []target{{"活版印刷", 40}, {"印刷所", 30}, {"サービス", 50}, {"検索エンジン", 40}, {"東京都", 40}}
)

type target struct {
	text     string
	perMille int
}

// Everyday words of each language, drawn beside the made-up vocabulary so
// that stemmers and stop words see real text.
var (
	englishWords = strings.Fields("the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there one all we their has been if more when will would who so no")
	germanWords  = strings.Fields("der die das und ist nicht mit für auf dem den ein eine sich von zu im auch es an werden aus er hat dass sie nach bei um noch wie über so zum einem einer vor durch Jahr Zeit Stadt Arbeit Tür Mädchen schön müssen können Frühling Wörter Zürich Köln")
	// Japanese pieces, strung together without spaces into sentences.
	japaneseWords = strings.Fields("会社 案内 お問い合わせ ください です ます の を に は が と 日本語 文書 情報 技術 開発 品質 用紙 注文 納期 価格 株式会社 大阪 新しい 年 月 日 毎日 ご利用 できます 場合 について 予定 資料 カタログ お客様 ホームページ データ 確認 ひらがな")
)

// siteEncodings are the legacy encodings GenerateSite writes, by WHATWG
// name: those Xapian Omega's omindex reads too (an HTML <meta charset>
// through iconv; a .txt that is not UTF-8 as ISO-8859-1).
var siteEncodings = map[string]encoding.Encoding{
	"windows-1252": charmap.Windows1252,
	"shift_jis":    japanese.ShiftJIS,
	"euc-jp":       japanese.EUCJP,
}

// GenerateSite writes n documents in subfolders of 100 of dir, the same
// files for every search engine measured: even-numbered ones .txt,
// odd-numbered ones .html with a <title>. About 40% are English, 30%
// German and 30% Japanese. English is 150 to 300 words, of a made-up
// vocabulary drawn with a Zipf law and everyday words; German the same
// with umlauts, ß and compounds; Japanese 8 to 20 sentences of words
// strung together without spaces, some documents with a line of keywords
// between full-width spaces (U+3000). Target words (SiteQueries) are put
// into a share of each language's documents. Some documents are in legacy
// charsets that Omega reads too: German .txt in ISO-8859-1 (no BOM, no
// declaration), German HTML declared ISO-8859-1, Japanese HTML declared
// Shift_JIS or EUC-JP. The same seed writes the same documents. Nothing
// generated is committed.
func GenerateSite(dir string, n int, seed uint64) ([]SiteDoc, error) {
	rng := rand.New(rand.NewPCG(seed, 0x517e))
	vocab := vocabulary(rng, 3000)
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	docs := make([]SiteDoc, 0, n)
	for i := 0; i < n; i++ {
		sub := fmt.Sprintf("d%04d", i/100)
		if i%100 == 0 {
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
				return nil, err
			}
		}
		d := SiteDoc{Charset: "utf-8"}
		var title, body string
		switch r := rng.IntN(10); {
		case r < 4:
			d.Lang = English
			title, body = westernText(rng, vocab, zipf, englishWords, englishTargets, false)
		case r < 7:
			d.Lang = German
			title, body = westernText(rng, vocab, zipf, germanWords, germanTargets, true)
		default:
			d.Lang = Japanese
			title, body = japaneseText(rng)
		}
		html := i%2 == 1
		switch {
		case d.Lang == German && rng.IntN(4) == 0:
			d.Charset = "windows-1252" // what WHATWG calls ISO-8859-1
		case d.Lang == Japanese && html && rng.IntN(5) == 0:
			d.Charset = "shift_jis"
		case d.Lang == Japanese && html && rng.IntN(5) == 0:
			d.Charset = "euc-jp"
		}
		var text string
		if html {
			d.Path = fmt.Sprintf("%s/doc%06d.html", sub, i)
			text = htmlPage(d, title, body)
		} else {
			d.Path = fmt.Sprintf("%s/doc%06d.txt", sub, i)
			text = title + "\n\n" + body + "\n"
		}
		data := []byte(text)
		if enc := siteEncodings[d.Charset]; enc != nil {
			var err error
			if data, err = enc.NewEncoder().Bytes(data); err != nil {
				return nil, fmt.Errorf("bench: %s in %s: %w", d.Path, d.Charset, err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(d.Path)), data, 0o644); err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// htmlPage is d's HTML, its charset declared as ISO-8859-1 (the label
// omindex and every browser know) for windows-1252.
func htmlPage(d SiteDoc, title, body string) string {
	label := d.Charset
	if label == "windows-1252" {
		label = "iso-8859-1"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"%s\"><title>%s</title></head>\n<body>", d.Lang, label, html.EscapeString(title))
	for p := range strings.SplitSeq(body, "\n") {
		b.WriteString("<p>" + html.EscapeString(p) + "</p>\n")
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// westernText is a title and a body of 150 to 300 words, in paragraphs
// of about 60.
func westernText(rng *rand.Rand, vocab []string, zipf *rand.Zipf, everyday []string, targets []target, capitalise bool) (title, body string) {
	words := make([]string, 150+rng.IntN(151))
	for j := range words {
		if rng.IntN(3) == 0 {
			words[j] = everyday[rng.IntN(len(everyday))]
		} else {
			words[j] = vocab[zipf.Uint64()]
			if capitalise && rng.IntN(4) == 0 { // German nouns
				words[j] = strings.ToUpper(words[j][:1]) + words[j][1:]
			}
		}
	}
	for _, t := range targets {
		if rng.IntN(1000) < t.perMille {
			for k := 1 + rng.IntN(3); k > 0; k-- {
				words[rng.IntN(len(words))] = t.text
			}
		}
	}
	for j := 60; j < len(words); j += 60 {
		words[j] += "\n"
	}
	return strings.Join(words[:4], " "), strings.ReplaceAll(strings.Join(words, " "), "\n ", "\n")
}

// japaneseText is a title (a sentence) and 8 to 20 sentences of 5 to 12
// pieces each, no spaces between them, so that only a substring search
// finds a word inside one; a tenth of the documents add a line of
// keywords between full-width spaces.
func japaneseText(rng *rand.Rand) (title, body string) {
	sentence := func() []string {
		s := make([]string, 5+rng.IntN(8))
		for j := range s {
			s[j] = japaneseWords[rng.IntN(len(japaneseWords))]
		}
		return s
	}
	sentences := make([][]string, 8+rng.IntN(13))
	for j := range sentences {
		sentences[j] = sentence()
	}
	for _, t := range japaneseTargets {
		if rng.IntN(1000) < t.perMille {
			s := sentences[rng.IntN(len(sentences))]
			// Never first or last, so that a target is always inside a
			// run of other characters.
			s[1+rng.IntN(len(s)-2)] = t.text
		}
	}
	var b strings.Builder
	for j, s := range sentences {
		b.WriteString(strings.Join(s, "") + "。")
		if j%5 == 4 {
			b.WriteString("\n")
		}
	}
	if rng.IntN(10) == 0 {
		b.WriteString("\nキーワード：　東京　検索　情報\n")
	}
	return strings.Join(sentence(), ""), strings.TrimSuffix(b.String(), "\n")
}

// Containing returns, for each word, the paths (slash-separated, relative
// to dir) of the documents under dir whose text, decoded, contains it: the
// truth a search's results are checked against, found without either
// engine. HTML is decoded in the charset it declares (WHATWG's prescan,
// x/net/html/charset); a .txt as UTF-8 when valid, else as ISO-8859-1 (as
// GenerateSite writes them). The markup is searched too: the words
// checked are not in it.
func Containing(dir string, words []string) (map[string][]string, error) {
	out := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		ext := filepath.Ext(p)
		if ext != ".html" && ext != ".txt" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text, err := decodeDocument(data, ext == ".html")
		if err != nil {
			return fmt.Errorf("bench: %s: %w", p, err)
		}
		rel, _ := filepath.Rel(dir, p)
		for _, w := range words {
			if strings.Contains(text, w) {
				out[w] = append(out[w], filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return out, err
}

func decodeDocument(data []byte, isHTML bool) (string, error) {
	var enc encoding.Encoding = charmap.ISO8859_1
	switch {
	case isHTML:
		enc, _, _ = charset.DetermineEncoding(data, "text/html")
	case utf8.Valid(data):
		return string(bytes.TrimPrefix(data, []byte("\ufeff"))), nil
	}
	b, err := enc.NewDecoder().Bytes(data)
	return string(b), err
}
