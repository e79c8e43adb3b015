package security

import (
	"strings"
	"testing"
)

// Overlong and ill-formed UTF-8: bytes that a lax decoder turns into '/'
// or '<' (IIS, CVE-2000-0884; PHP's htmlspecialchars, CVE-2009-4142) must
// never become those characters. Where UTF-8 is named (the _charset_
// field here, or CGIGATE_SNIFF=0), every ill-formed sequence becomes
// U+FFFD as the Encoding Standard's UTF-8 decoder says (§ 8.1.1; the
// expected strings are Python's bytes.decode("utf-8", "replace"), which
// follows the same "maximal subpart" rule). Where nothing names a
// charset, the bytes are not UTF-8, so the gateway sniffs a legacy charset
// for them: they become some CJK or Cyrillic text, again never '/' or
// '<'. Both outcomes are pinned.

// utf8Named runs the case with the charset named UTF-8 by _charset_.
func utf8Named(query string) request { return request{Query: query + "&_charset_=utf-8"} }

func TestCVE_2000_0884_OverlongSlashIsNeverASlash(t *testing.T) {
	c := corpusCase(t, 11, "f=..%c0%af..%c0%afetc%c0%afpasswd")
	t.Run("named UTF-8, each byte is U+FFFD", func(t *testing.T) {
		each(t, utf8Named(c.Input), func(t *testing.T, r response) {
			res := decoded(t, r)
			wantFields(t, res, q("f", "..\uFFFD\uFFFD..\uFFFD\uFFFDetc\uFFFD\uFFFDpasswd"), q("_charset_", "utf-8"))
			warned(t, res, "bytes C0 at offset 2 are invalid in utf-8")
		}, alsoPrefork())
	})
	t.Run("unnamed, it is sniffed as a legacy charset and still holds no slash", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			res := decoded(t, r)
			if res.Charset == "utf-8" || res.CharsetSource != "sniffed" || len(res.Fields) != 1 {
				t.Fatalf("charset %s (%s), fields %q", res.Charset, res.CharsetSource, res.Fields)
			}
			if v := res.Fields[0].Value; strings.ContainsAny(v, `/\`) || !strings.HasPrefix(v, "..") || !strings.HasSuffix(v, "passwd") {
				t.Errorf("value %q", v)
			}
		})
	})
	t.Run("with sniffing off, each byte is U+FFFD", func(t *testing.T) {
		each(t, request{Script: "cgigate-nosniff", Query: c.Input}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("f", "..\uFFFD\uFFFD..\uFFFD\uFFFDetc\uFFFD\uFFFDpasswd"))
		})
	})
}

func TestCVE_2009_4142_OverlongLessThanIsNeverLessThan(t *testing.T) {
	c := corpusCase(t, 12, "x=%C0%BC")
	t.Run("named UTF-8, it is two U+FFFD", func(t *testing.T) {
		each(t, utf8Named(c.Input), func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("x", "\uFFFD\uFFFD"), q("_charset_", "utf-8"))
		})
	})
	t.Run("unnamed, the HTML rendering holds no '<' from it", func(t *testing.T) {
		each(t, request{Query: c.Input, Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "<h1>Your submission was received</h1>")
			if strings.Contains(string(r.Body), "<dd><") || strings.Contains(string(r.Body), "&lt;</dd>") {
				t.Errorf("an overlong '<' was decoded:\n%s", r.Body)
			}
		})
	})
}

func TestOverlongSurrogateAndOutOfRangeAreReplaced(t *testing.T) {
	c := corpusCase(t, 13, "a=%E0%80%AF&b=%ED%A0%80&c=%F4%90%80%80")
	each(t, utf8Named(c.Input), func(t *testing.T, r response) {
		wantFields(t, decoded(t, r),
			q("a", "\uFFFD\uFFFD\uFFFD"), q("b", "\uFFFD\uFFFD\uFFFD"), q("c", "\uFFFD\uFFFD\uFFFD\uFFFD"), q("_charset_", "utf-8"))
	})
}

func TestTruncatedUTF8IsOneReplacement(t *testing.T) {
	c := corpusCase(t, 17, "x=%F0%9F%98")
	each(t, utf8Named(c.Input), func(t *testing.T, r response) {
		wantFields(t, decoded(t, r), q("x", "\uFFFD"), q("_charset_", "utf-8"))
	})
}

func TestBOMInsideDataIsKept(t *testing.T) {
	c := corpusCase(t, 18, "%EF%BB%BFtest=%EF%BB%BF")
	each(t, request{Query: c.Input}, func(t *testing.T, r response) {
		res := decoded(t, r)
		wantFields(t, res, q("\uFEFFtest", "\uFEFF"))
		if res.Charset != "utf-8" {
			t.Errorf("charset %q", res.Charset)
		}
	})
}

func TestBidiOverrideIsDataRenderedEscaped(t *testing.T) {
	c := corpusCase(t, 19, "n=%E2%80%AEfdp.exe")
	t.Run("the value keeps U+202E", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("n", "\u202Efdp.exe"))
		})
	})
	t.Run("the HTML shows it as text in a cell of its own", func(t *testing.T) {
		each(t, request{Query: c.Input, Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "<dd>\u202Efdp.exe</dd>")
		})
	})
}
