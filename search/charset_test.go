package search

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// iconv encodes s from UTF-8 to charset with glibc's iconv: the bytes a
// legacy editor would have saved, made by another implementation than
// the one that reads them.
func iconv(t testing.TB, charset, s string) []byte {
	t.Helper()
	if _, err := exec.LookPath("iconv"); err != nil {
		missing.SkipOrFail(t, "iconv (libc-bin) is not installed")
	}
	cmd := exec.Command("iconv", "-f", "UTF-8", "-t", charset)
	cmd.Stdin = strings.NewReader(s)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("iconv -t %s: %v", charset, err)
	}
	return out
}

// pyEncode encodes s with a Python codec (utf-16 writes a byte order
// mark), a second independent encoder.
func pyEncode(t testing.TB, codec, s string) []byte {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		missing.SkipOrFail(t, "python3 is not installed")
	}
	cmd := exec.Command("python3", "-c", "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('utf-8').encode(sys.argv[1]))", codec)
	cmd.Stdin = strings.NewReader(s)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 %s: %v", codec, err)
	}
	return out
}

const (
	japanese = "印刷サービスのご案内。オフセット印刷と活版印刷を承ります。料金は部数によって変わります。お気軽にお問い合わせください。"
	german   = "Über unsere Druckerei: Straßenbahn, Größe, Qualität und schöne Bücher für Sie."
)

func TestDocumentsAreReadInTheirCharset(t *testing.T) {
	html := func(head, body string) string {
		return "<!DOCTYPE html><html><head>" + head + "<title>T</title></head><body><p>" + body + "</p></body></html>"
	}
	for _, tc := range []struct {
		name        string
		doc         []byte
		html        bool
		textCharset string
		want        string // in the text
		charset     string
		from        string
	}{
		{"Shift_JIS HTML with <meta charset>", iconv(t, "SHIFT_JIS", html(`<meta charset="Shift_JIS">`, japanese)), true, "", japanese, "shift_jis", fromMeta},
		{"EUC-JP HTML with http-equiv Content-Type", iconv(t, "EUC-JP", html(`<meta http-equiv="Content-Type" content="text/html; charset=euc-jp">`, japanese)), true, "", japanese, "euc-jp", fromMeta},
		{"a <meta> after a comment and a tag whose attribute holds '>'", iconv(t, "SHIFT_JIS", html(`<!-- <meta charset="koi8-r"> --><link title="a>b" href=x><META CHARSET=sjis>`, japanese)), true, "", japanese, "shift_jis", fromMeta},
		{"a <meta> naming no charset is passed over for the sniffer", iconv(t, "EUC-JP", html(`<meta charset="no-such-charset">`, japanese)), true, "", japanese, "euc-jp", fromSniff},
		{"Latin-1 XHTML with an XML declaration", iconv(t, "ISO-8859-1", `<?xml version="1.0" encoding="ISO-8859-1"?>`+html("", german)), true, "", german, "windows-1252", fromXML},
		{"UTF-16 with a byte order mark (Python's codec)", pyEncode(t, "utf-16", html("", japanese)), true, "", japanese, "utf-16le", fromBOM},
		{"UTF-8 with a byte order mark, a meta saying otherwise", []byte("\xEF\xBB\xBF" + html(`<meta charset="windows-1252">`, german)), true, "", german, "utf-8", fromBOM},
		{"Shift_JIS text read by CGIGATE_INDEX_CHARSET", iconv(t, "SHIFT_JIS", japanese), false, "shift_jis", japanese, "shift_jis", fromSetting},
		{"EUC-JP text without a setting is sniffed", iconv(t, "EUC-JP", japanese), false, "", japanese, "euc-jp", fromSniff},
		{"Shift_JIS HTML without a meta is sniffed", iconv(t, "SHIFT_JIS", html("", japanese)), true, "", japanese, "shift_jis", fromSniff},
		{"Latin-1 text without a setting is sniffed", iconv(t, "ISO-8859-1", german), false, "", german, "windows-1252", fromSniff},
		{"valid UTF-8 text is UTF-8 whatever the setting", []byte(german), false, "shift_jis", german, "utf-8", fromUTF8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, name, from := decodeDoc(tc.doc, tc.html, tc.textCharset)
			if !strings.Contains(text, tc.want) || name != tc.charset || from != tc.from {
				t.Errorf("read as %s (%s): %.120q", name, from, text)
			}
		})
	}
}

func TestPrescan(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"charset attribute", `<meta charset="euc-jp">`, "euc-jp"},
		{"unquoted, upper case", `<META CHARSET=Shift_JIS>`, "shift_jis"},
		{"http-equiv with the charset quoted in content", `<meta content='text/html; charset="big5"' http-equiv=content-type>`, "big5"},
		{"http-equiv of another kind", `<meta http-equiv="refresh" content="charset=big5">`, ""},
		{"inside a comment", `<!-- <meta charset="big5"> -->`, ""},
		{"inside another tag's attribute", `<a title='<meta charset="big5">'>`, ""},
		{"a meta-like tag name", `<metal charset="big5">`, ""},
		{"the first of two", `<meta charset="gbk"><meta charset="big5">`, "gbk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := prescan([]byte(tc.doc)); got != tc.want {
				t.Errorf("prescan(%q) = %q; want %q", tc.doc, got, tc.want)
			}
		})
	}
}

func TestLegacyDocumentsAreFoundByTheirWords(t *testing.T) {
	dir := makeIndex(t, map[string]string{
		"sjis.html":  string(iconv(t, "SHIFT_JIS", `<html><head><meta charset="Shift_JIS"><title>印刷のご案内</title></head><body>`+japanese+`</body></html>`)),
		"eucjp.txt":  string(iconv(t, "EUC-JP", japanese)),
		"latin1.txt": string(iconv(t, "ISO-8859-1", german)),
	})
	check := func(t *testing.T) {
		for _, tc := range []struct{ word, want string }{
			{"活版印刷", "eucjp.txt sjis.html"},
			{"STRASSENBAHN", "latin1.txt"},
			{"größe", "latin1.txt"},
		} {
			a := searchFolder(t, dir, tc.word)
			var urls []string
			for _, r := range a.Results {
				urls = append(urls, r.URL)
			}
			if strings.Join(urls, " ") != tc.want || a.log != "" {
				t.Errorf("%s: found %q, logged %q; want %s", tc.word, urls, a.log, tc.want)
			}
		}
	}
	t.Run("the scan finds Shift_JIS, EUC-JP and Latin-1 documents by their words", check)
	st, err := (&Folder{Dir: dir}).Build()
	if err != nil || len(st.Warnings) != 0 {
		t.Fatalf("%v %q", err, st.Warnings)
	}
	t.Run("the index finds them too", check)
}
