package main

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The example the gateway is known by (http:[EUC]//www.jacme.co.jp/...): a bare [EUC] hint leaves euc-jp, euc-kr and gbk to
// sniffing, with the host's .jp as evidence. B0F5 BAFE is 印刷 in EUC-JP
// (JIS X 0208 row 16 cell 85, row 26 cell 94) and 곰빤 in EUC-KR.
func TestTheJacmeExampleDecodesToJapanese(t *testing.T) {
	for _, in := range []string{
		"http:[EUC]//www.jacme.co.jp/%B0%F5%BA%FE.html",
		"http:[EUC]://www.jacme.co.jp/%B0%F5%BA%FE.html",
	} {
		t.Run(in+" prints http://www.jacme.co.jp/印刷.html", func(t *testing.T) {
			r := urldecode(t, "", in)
			first, _, _ := strings.Cut(r.stdout, "\n")
			if first == "http://www.jacme.co.jp/印刷.html" && r.code == 0 {
				return
			}
			t.Errorf("got %q (exit %d), want http://www.jacme.co.jp/印刷.html\n%s", first, r.code, r.stdout)
		})
	}
}

func TestCharsetFlagForcesItsCharset(t *testing.T) {
	// 印刷 in Shift_JIS (88 F3 8D FC) is read as EUC-KR, as -charset says,
	// whatever the hint says.
	r := urldecode(t, "", "-charset", "euc-kr", "http:[Shift_JIS]//example.jp/%88%F3%8D%FC")
	if !strings.Contains(r.stdout, "\n  charset:  euc-kr (") {
		t.Errorf("-charset euc-kr did not decide:\n%s", r.stdout)
	}
}

func TestHintsAfterTheSchemeDecide(t *testing.T) {
	for _, tc := range []struct{ name, in, want, charset string }{
		{"a two-part hint without a colon after it names euc-jp", "http:[JIS0208:EUC]//www.jacme.co.jp/%B0%F5%BA%FE.html", "http://www.jacme.co.jp/印刷.html", "euc-jp (hint [JIS0208:EUC])"},
		{"a hint followed by :// names the charset too", "http:[EUC-JP]://www.jacme.co.jp/%B0%F5%BA%FE.html", "http://www.jacme.co.jp/印刷.html", "euc-jp (hint [EUC-JP])"},
		{"a hint after the scheme names the charset of the path", "http:[Shift_JIS]//example.jp/%88%F3%8D%FC", "http://example.jp/印刷", "shift_jis (hint [Shift_JIS])"},
		{"a query hint names the charset of the path too", "http://example.jp/%88%F3?[Shift_JIS]:%8D%FC", "http://example.jp/印?刷", "shift_jis (hint [Shift_JIS])"},
		{"a _charset_ field names the charset of the whole URL", "http://example.jp/%88%F3?_charset_=shift_jis&q=%8D%FC", "http://example.jp/印?_charset_=shift_jis&q=刷", "shift_jis (_charset_)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := urldecode(t, "", tc.in)
			if first, _, _ := strings.Cut(r.stdout, "\n"); first != tc.want || r.code != 0 {
				t.Errorf("got %q (exit %d), want %q\n%s", first, r.code, tc.want, r.stderr)
			}
			if !strings.Contains(r.stdout, "\n  charset:  "+tc.charset+"\n") {
				t.Errorf("no charset line %q in\n%s", tc.charset, r.stdout)
			}
		})
	}
}

// The parts printout, checked against RFC 3986 § 3's decomposition of the
// URL (written out by hand) and the URL Standard's default port table.
func TestPrintsEveryPartOfAURL(t *testing.T) {
	r := urldecode(t, "", "-charset", "euc-jp",
		"HTTP://J%F6rg:s%20cret@www.%79%61%68%6f%6f.com/a%2Fb/%B0%F5%BA%FE/?q=%B0%F5+x&n=1#sec%202")
	want := `http://Jörg:s%20cret@www.yahoo.com/a%2Fb/印刷/?q=印+x&n=1#sec%202
  scheme:   http
  user:     "J\ufffdrg"
  password: "s cret"
  host:     www.yahoo.com (IDNA www.yahoo.com, percent-decoded)
  port:     80 (default for http)
  segment:  "a/b"
  segment:  "印刷"
  segment:  ""
  field:    "q" = "印 x"
  field:    "n" = "1"
  fragment: "sec 2"
  charset:  euc-jp (-charset)
  warning:  user: bytes F6 at offset 1 are invalid in euc-jp, replaced by U+FFFD
`
	want = strings.ReplaceAll(strings.Replace(want, "Jörg", `J\ufffdrg`, 1), `\ufffd`, "\uFFFD")
	if r.stdout != want {
		t.Errorf("got\n%s\nwant\n%s", r.stdout, want)
	}
	if r.code != 1 || !strings.Contains(r.stderr, "urldecode: argument 1: user: bytes F6 at offset 1 are invalid in euc-jp, replaced by U+FFFD\n") {
		t.Errorf("exit %d, stderr %q: want 1 and the invalid byte named", r.code, r.stderr)
	}
}

func TestPartsOfOtherInputs(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string // lines that must appear, in order
	}{
		{"an explicit port is shown without a default", []string{"https://example.com:8443/"},
			[]string{"https://example.com:8443/", "  port:     8443"}},
		{"a port equal to the default is the default", []string{"http://example.com:80/x"},
			[]string{"http://example.com/x", "  port:     80 (default for http)"}},
		{"IDNA A-labels are shown as U-labels with the ASCII beside", []string{"http://xn--mnchen-3ya.de/"},
			[]string{"http://münchen.de/", "  host:     münchen.de (IDNA xn--mnchen-3ya.de, punycode)"}},
		{"an IPv4 host written in hex is normalised", []string{"http://0x7f.1/"},
			[]string{"http://127.0.0.1/", "  host:     127.0.0.1 (IPv4, mapped)"}},
		{"a query alone is ISINDEX words", []string{"-charset", "utf-8", "%E5%8D%B0+%E5%88%B7"},
			[]string{"印+刷", `  keyword:  "印"`, `  keyword:  "刷"`, "  charset:  utf-8 (-charset)"}},
		{"an encoded plus stays inside its word", []string{"foo+bar%2Bbaz"},
			[]string{"foo+bar%2Bbaz", `  keyword:  "foo"`, `  keyword:  "bar+baz"`, "  charset:  utf-8 (default)"}},
		{"a request target has segments and fields but no scheme", []string{"-charset", "utf-8", "/cgi-bin/q?a=%E5%8D%B0&b"},
			[]string{"/cgi-bin/q?a=印&b=", `  segment:  "cgi-bin"`, `  field:    "a" = "印"`, `  field:    "b" = ""`}},
		{"a decoded ampersand or equals sign stays escaped in the one-line form", []string{"?a%26b=c%3Dd%26e"},
			[]string{"a%26b=c=d%26e", `  field:    "a&b" = "c=d&e"`}},
		{"a mailto address has a user and a host", []string{"mailto:%E5%8D%B0@xn--wgv71a119e.jp"},
			[]string{"mailto:印@日本語.jp", "  scheme:   mailto", `  user:     "印"`, "  host:     日本語.jp (IDNA xn--wgv71a119e.jp, punycode)"}},
		{"pure ASCII is UTF-8 by default", []string{"http://example.com/a?b=c"},
			[]string{"  charset:  utf-8 (default)"}},
		{"valid UTF-8 is sniffed as UTF-8", []string{"http://example.com/%E5%8D%B0%E5%88%B7"},
			[]string{"http://example.com/印刷", "  charset:  utf-8 (sniffed, confidence 1.00)"}},
		{"a malformed escape is kept with a warning", []string{"/a%zzb"},
			[]string{"/a%25zzb", `  segment:  "a%zzb"`, `  warning:  path segment 1: malformed escape "%zz" at offset 1 kept as it is`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := urldecode(t, "", tc.args...)
			if r.code != 0 {
				t.Errorf("exit %d: %s", r.code, r.stderr)
			}
			assertLinesInOrder(t, r.stdout, tc.want)
		})
	}
}

func assertLinesInOrder(t *testing.T, out string, want []string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	i := 0
	for _, w := range want {
		for i < len(lines) && lines[i] != w {
			i++
		}
		if i == len(lines) {
			t.Errorf("line %q missing or out of order in\n%s", w, out)
			return
		}
	}
}

// The legacy label encodings, with the project's own (and draft-jseng-utf5's)
// examples as the truth, both ways, in hosts and in user parts.
func TestLegacyIDNBothWays(t *testing.T) {
	for _, tc := range []struct{ unicode, legacy string }{
		{"日本語.jp", "M---5E5M72COA9E.jp"},
		{"αβ.gr", "J---B1JB2.gr"},
		{"œuf.fr", "C--59--3uf.fr"},
		{"feliĉulo.eo", "feliC--48--9ulo.eo"},
		{"ab--cd.example", "ab----2cd.example"},     // an ASCII label that would read as double-hyphened
		{"é---x.example", "C--3A--9----3x.example"}, // é is UTF-8 C3 A9; its own "---" is "----3"
		{"αβ@日本語.jp", "J---B1JB2@M---5E5M72COA9E.jp"},
	} {
		t.Run(tc.unicode+" is "+tc.legacy, func(t *testing.T) {
			if r := urldecode(t, "", "-idn", "-legacy-idn", "-encode", tc.unicode); r.stdout != tc.legacy+"\n" || r.code != 0 {
				t.Errorf("encode: %q exit %d %s", r.stdout, r.code, r.stderr)
			}
			if r := urldecode(t, "", "-idn", "-legacy-idn", tc.legacy); r.stdout != tc.unicode+"\n" || r.code != 0 {
				t.Errorf("decode: %q exit %d %s", r.stdout, r.code, r.stderr)
			}
		})
	}
	t.Run("without -legacy-idn a legacy-looking label is only a label", func(t *testing.T) {
		if r := urldecode(t, "", "-idn", "M---5E5M72COA9E.jp"); r.stdout != "m---5e5m72coa9e.jp\n" {
			t.Errorf("got %q", r.stdout)
		}
	})
	t.Run("the user part of a URL and of a mailto address is decoded too", func(t *testing.T) {
		r := urldecode(t, "", "-legacy-idn", "ftp://J---B1JB2@M---5E5M72COA9E.jp/", "mailto:J---B1JB2@M---5E5M72COA9E.jp")
		assertLinesInOrder(t, r.stdout, []string{
			"ftp://αβ@日本語.jp/", `  user:     "αβ" (legacy IDN)`, "  host:     日本語.jp (IDNA xn--wgv71a119e.jp, legacy+punycode)",
			"mailto:αβ@日本語.jp", `  user:     "αβ" (legacy IDN)`,
		})
	})
	t.Run("encoding a URL writes its host and user in the legacy forms", func(t *testing.T) {
		r := urldecode(t, "", "-encode", "-legacy-idn", "ftp://αβ@日本語.jp/")
		if r.stdout != "ftp://J---B1JB2@M---5E5M72COA9E.jp/\n" {
			t.Errorf("got %q", r.stdout)
		}
	})
}

func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string // a regular expression
	}{
		{"everything decoded is 0", "", []string{"http://example.com/", "q=1"}, 0, `^$`},
		{"bytes invalid in the forced charset are 1, naming the line", "q=%41\n\nq=%FF\n", []string{"-charset", "utf-8"},
			1, `^urldecode: line 3: field value 1: bytes FF at offset 0 are invalid in utf-8`},
		{"an unknown hint names its label and the argument", "", []string{"/ok", "http:[x-klingon]//example.com/%B0"},
			1, `^urldecode: argument 2: .*x-klingon`},
		{"an unknown -charset is a usage error naming the label", "", []string{"-charset", "x-klingon", "q"},
			2, `^urldecode: -charset: .*x-klingon`},
		{"an unknown flag is a usage error", "", []string{"-frobnicate"}, 2, `flag provided but not defined`},
		{"-log with arguments is a usage error", "", []string{"-log", "-", "q"}, 2, `-log takes no other argument`},
		{"an invalid port is 1", "", []string{"http://example.com:99999/"}, 1, `argument 1: invalid port "99999"`},
		{"a host IDNA refuses is 1", "", []string{"http://a%00b.com/"}, 1, `argument 1: .*ParseHost`},
		{"a character the charset cannot encode is 1", "", []string{"-encode", "-charset", "latin1", "印"}, 1, `argument 1: `},
		{"with -ncr it is a character reference instead", "", []string{"-encode", "-ncr", "-charset", "latin1", "印"}, 0, `^$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := urldecode(t, tc.stdin, tc.args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", r.code, tc.code, r.stderr)
			}
			if !regexp.MustCompile(tc.stderr).MatchString(r.stderr) {
				t.Errorf("stderr %q does not match %s", r.stderr, tc.stderr)
			}
		})
	}
}

func TestNCRWaysAreBrowsers(t *testing.T) {
	// HTML § 4.10.21.7: a character the form's charset lacks is sent as a
	// decimal reference, escaped: "&#21360;" is %26%2321360%3B.
	if r := urldecode(t, "", "-encode", "-ncr", "-charset", "latin1", "印"); r.stdout != "%26%2321360%3B\n" {
		t.Errorf("encode: %q", r.stdout)
	}
	r := urldecode(t, "", "-ncr", "-charset", "latin1", "q=%26%2321360%3B")
	assertLinesInOrder(t, r.stdout, []string{`  field:    "q" = "印"`})
}

func TestStdinLinesAreInputsInOrder(t *testing.T) {
	r := urldecode(t, "http://example.com/a\n\n  q=%E5%8D%B0  \r\nhttp:[x-nope]//e.com/\n/b\n", "-json")
	got := jsonLines(t, r.stdout)
	if len(got) != 4 {
		t.Fatalf("%d objects, want 4:\n%s", len(got), r.stdout)
	}
	for i, w := range []struct {
		line int
		url  string
	}{{1, "http://example.com/a"}, {3, "q=印"}, {4, ""}, {5, "/b"}} {
		if got[i].Line != w.line || got[i].URL != w.url {
			t.Errorf("object %d: line %d url %q, want line %d url %q", i, got[i].Line, got[i].URL, w.line, w.url)
		}
	}
	if !strings.Contains(got[2].Error, "x-nope") {
		t.Errorf("object 3 error %q does not name the label", got[2].Error)
	}
	if r.code != 1 || !strings.HasPrefix(r.stderr, "urldecode: line 4: ") {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
}

func TestHelpDocumentsEveryFlagWithAnExample(t *testing.T) {
	r := urldecode(t, "", "-h")
	if r.code != 0 {
		t.Errorf("-h exit %d", r.code)
	}
	if r.stderr != "" {
		t.Errorf("-h wrote to stderr: %q", r.stderr)
	}
	help := r.stdout
	flags := regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatchIndex(help, -1)
	var names []string
	for _, f := range flags {
		names = append(names, help[f[2]:f[3]])
	}
	if want := []string{"charset", "encode", "host", "idn", "json", "legacy-idn", "log", "ncr", "version", "whatwg"}; !reflect.DeepEqual(names, want) {
		t.Errorf("flags documented %q, want %q", names, want)
	}
	for i, f := range flags {
		end := len(help)
		if i+1 < len(flags) {
			end = flags[i+1][0]
		}
		name, doc := help[f[2]:f[3]], help[f[1]:end]
		if name == "version" {
			continue // every command's, and it takes nothing to show
		}
		if !strings.Contains(doc, "(example: -"+name) && !strings.Contains(doc, "(example: -encode -"+name) && !strings.Contains(doc, "(example: -idn") {
			t.Errorf("flag -%s has no example:\n%s", name, doc)
		}
	}
	for _, w := range []string{"Exit status", "urldecode 'http:[EUC]//www.jacme.co.jp/%B0%F5%BA%FE.html'"} {
		if !strings.Contains(help, w) {
			t.Errorf("-h does not say %q", w)
		}
	}
}

// The gateway's JSON contract (cmd/cgigate): every key present, lists
// empty rather than null, fields as {name, value, source}.
func TestJSONHasTheGatewaysKeysAndNoNullLists(t *testing.T) {
	for _, in := range []string{"http://example.com/", "q=1&r=2", "a+b", "/x"} {
		t.Run(in+" has every key", func(t *testing.T) {
			r := urldecode(t, "", "-json", in)
			var m map[string]any
			if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"kind", "charset", "charset_source", "keywords", "fields", "warnings",
				"url", "scheme", "host", "host_ascii", "port", "path", "segments", "fragment"} {
				if _, ok := m[k]; !ok {
					t.Errorf("no key %q in %s", k, r.stdout)
				}
			}
			for _, k := range []string{"keywords", "fields", "warnings", "segments", "errors"} {
				if _, ok := m[k].([]any); !ok {
					t.Errorf("%s is %v, want a list", k, m[k])
				}
			}
		})
	}
	r := urldecode(t, "", "-json", "q=%E5%8D%B0")
	var m struct {
		Fields []map[string]string `json:"fields"`
	}
	json.Unmarshal([]byte(r.stdout), &m)
	if len(m.Fields) != 1 || m.Fields[0]["name"] != "q" || m.Fields[0]["value"] != "印" || m.Fields[0]["source"] != "query" || len(m.Fields[0]) != 3 {
		t.Errorf("fields %v", m.Fields)
	}
}

// Every example of -h runs and succeeds (the -log one needs a log, so it
// is given one).
func TestTheHelpExamplesWork(t *testing.T) {
	help := urldecode(t, "", "-h").stdout
	_, examples, ok := strings.Cut(help, "\nExamples:\n")
	if !ok {
		t.Fatal("no Examples in -h")
	}
	word := regexp.MustCompile(`'[^']*'|[^ ]+`)
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(examples), "\n") {
		line = strings.TrimSpace(line)
		line, _, _ = strings.Cut(line, " > ")
		args := word.FindAllString(strings.TrimPrefix(line, "urldecode "), -1)
		for i, a := range args {
			args[i] = strings.Trim(a, "'")
		}
		stdin := ""
		if len(args) == 2 && args[0] == "-log" {
			args[1] = "-"
			stdin = `127.0.0.1 - - [01/Dec/1998:10:00:00 +0900] "GET /?q=a HTTP/1.0" 200 1` + "\n"
		}
		n++
		t.Run(line, func(t *testing.T) {
			r := urldecode(t, stdin, args...)
			if r.code != 0 || r.stdout == "" {
				t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}
	if n < 5 {
		t.Errorf("only %d examples", n)
	}
}

func TestALineTooLongIsSkippedAndReadingGoesOn(t *testing.T) {
	r := urldecode(t, "q=1\n"+strings.Repeat("a", 2<<20)+"\nq=2", "-json")
	got := jsonLines(t, r.stdout)
	if len(got) != 2 || got[0].Line != 1 || got[1].Line != 3 || got[1].URL != "q=2" {
		t.Errorf("got %+v", got)
	}
	if r.code != 1 || !strings.Contains(r.stderr, "urldecode: line 2: line longer than 1048576 bytes, skipped") {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
}
