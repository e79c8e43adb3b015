package security

import (
	"net/http"
	"strings"
	"testing"
)

// Charsets: a multibyte decoder must neither swallow an ASCII byte that
// follows a lead byte (so a quote or '<' vanishes: the Shift_JIS, Big5 and
// GB18030 escaping bypasses) nor forge one (ISO-2022-JP's escape
// sequences). The gateway splits structure on raw bytes first and decodes
// with the Encoding Standard's decoders (decoder/charset wraps x/text
// where it departs from them), and renders decoded text escaped. The
// expected strings are the Encoding Standard's (§ 11-13), which Python's
// codecs match for these bytes; where x/text alone gives something else,
// the corpus says so and the test pins the standard's answer.

// hinted sends the case's query with its charset named in the query head.
func hinted(label, query string) request { return request{Query: "[" + label + "]:" + query} }

func TestUTF7IsNeverUsed(t *testing.T) {
	c := corpusCase(t, 36, "q=%2BADw-script%2BAD4-")
	t.Run("named by a hint, it is 400 naming the label", func(t *testing.T) {
		each(t, hinted(c.Charset, c.Input), func(t *testing.T, r response) {
			refused(t, r, http.StatusBadRequest, `"utf-7"`)
		}, alsoPrefork())
	})
	t.Run("named by _charset_, it is 400", func(t *testing.T) {
		each(t, request{Query: c.Input + "&_charset_=utf-7"}, func(t *testing.T, r response) {
			refused(t, r, http.StatusBadRequest, `"utf-7" (from _charset_)`)
		})
	})
	t.Run("unnamed, the value stays literal and the page says charset=utf-8", func(t *testing.T) {
		each(t, request{Query: c.Input, Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "<dd>&#43;ADw-script&#43;AD4-</dd>") // html/template escapes + too
		}, noRaw("<script"))
	})
}

func TestReplacementEncodingLabelsAre400(t *testing.T) {
	c := corpusCase(t, 37, "q=abc")
	for _, label := range strings.Split(c.Charset, " / ") {
		t.Run(label, func(t *testing.T) {
			each(t, hinted(label, c.Input), func(t *testing.T, r response) {
				refused(t, r, http.StatusBadRequest, `"`+label+`"`)
			})
		})
	}
	t.Run("iso-2022-kr from a body's Content-Type", func(t *testing.T) {
		rq := form(c.Input)
		rq.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=iso-2022-kr")
		each(t, rq, func(t *testing.T, r response) {
			refused(t, r, http.StatusBadRequest, `"iso-2022-kr" (from content-type)`)
		})
	})
}

func TestUTF16LabelDecodesAsUTF8(t *testing.T) {
	c := corpusCase(t, 38, "q=%41%00")
	rq := form(c.Input)
	rq.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset="+c.Charset)
	each(t, rq, func(t *testing.T, r response) {
		res := decoded(t, r)
		if res.Charset != "utf-8" || res.CharsetSource != "content-type" {
			t.Errorf("charset %s from %s; want utf-8 from content-type", res.Charset, res.CharsetSource)
		}
		wantFields(t, res, b("q", "A\uFFFD"))
		warned(t, res, "NUL replaced")
	}, alsoPrefork())
}

func TestNonASCIIWhitespaceAroundALabelIs400(t *testing.T) {
	c := corpusCase(t, 39, "\u00a0utf-8")
	t.Run("U+00A0 before utf-8 in _charset_ is 400", func(t *testing.T) {
		each(t, request{Query: c.Input + "&_charset_=%C2%A0utf-8"}, func(t *testing.T, r response) {
			refused(t, r, http.StatusBadRequest, "unknown or unusable charset")
		})
	})
	t.Run("ASCII whitespace is trimmed, as the Encoding Standard says", func(t *testing.T) {
		each(t, request{Query: c.Input + "&_charset_=%20utf-8%0C"}, func(t *testing.T, r response) {
			if res := decoded(t, r); res.Charset != "utf-8" || res.CharsetSource != "_charset_" {
				t.Errorf("charset %s from %s", res.Charset, res.CharsetSource)
			}
		})
	})
	t.Run("a vertical tab is not ASCII whitespace: 400", func(t *testing.T) {
		each(t, request{Query: c.Input + "&_charset_=utf-8%0B"}, func(t *testing.T, r response) {
			refused(t, r, http.StatusBadRequest)
		})
	})
}

// charsetCase pins one decoded value in JSON and its escaped HTML.
func charsetCase(t *testing.T, id int, fragment, want, html string, payloads ...string) {
	t.Helper()
	c := corpusCase(t, id, fragment)
	t.Run("decoded with the Encoding Standard's decoder", func(t *testing.T) {
		each(t, hinted(c.Charset, c.Input), func(t *testing.T, r response) {
			res := decoded(t, r)
			if res.Charset != c.Charset || res.CharsetSource != "hint" {
				t.Errorf("charset %s from %s", res.Charset, res.CharsetSource)
			}
			wantFields(t, res, q("q", want))
		}, alsoPrefork())
	})
	t.Run("named by _charset_ instead, the same", func(t *testing.T) {
		each(t, request{Query: c.Input + "&_charset_=" + c.Charset}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("q", want), q("_charset_", c.Charset))
		})
	})
	t.Run("rendered escaped", func(t *testing.T) {
		rq := hinted(c.Charset, c.Input)
		rq.Accept = "text/html"
		each(t, rq, func(t *testing.T, r response) { wantHTML(t, r, "<dd>"+html+"</dd>") }, noRaw(payloads...))
	})
}

func TestShiftJISLeadByteCannotEatAQuote(t *testing.T) {
	charsetCase(t, 40, "q=%81%22%3E%3Cscript%3E", "\uFFFD\"><script>", "\uFFFD&#34;&gt;&lt;script&gt;", `"><script>`)
}

func TestShiftJISLeadByteCannotEatABackslash(t *testing.T) {
	charsetCase(t, 41, "q=%82%5C%22", "\uFFFD\\\"", "\uFFFD\\&#34;")
}

func TestBig5LeadByteCannotEatABackslash(t *testing.T) {
	charsetCase(t, 42, "q=%83%5C%22", "\uFFFD\\\"", "\uFFFD\\&#34;")
}

func TestShiftJISTrailBackslashIsPartOfTheCharacter(t *testing.T) {
	charsetCase(t, 43, "q=%95%5C", "\u8868", "\u8868")
}

func TestGBKTrailBackslashIsPartOfTheCharacter(t *testing.T) {
	charsetCase(t, 44, "q=%BF%5C%27", "\u7E17'", "\u7E17&#39;")
}

func TestISO2022JPEscapeCannotSwallowMarkup(t *testing.T) {
	charsetCase(t, 45, "q=%1B%24B!%1B(B%3Cscript%3E", "\uFFFD<script>", "\uFFFD&lt;script&gt;", "<script>")
}

func TestISO2022JPEmptyEscapeCannotForgeMarkup(t *testing.T) {
	charsetCase(t, 46, "q=%3Cscr%1B%24B%1B(Bipt%3E", "<scr\uFFFDipt>", "&lt;scr\uFFFDipt&gt;", "<script>", "<scr")
}

func TestISO2022JPRomanIsYenAndOverline(t *testing.T) {
	charsetCase(t, 47, "q=%1B(J%5C%7E", "\u00A5\u203E", "\u00A5\u203E")
}

func TestGB18030FourByteCannotSwallowLessThan(t *testing.T) {
	charsetCase(t, 71, "q=%81%3C%81%30script%3E", "\uFFFD<\uFFFD0script>", "\uFFFD&lt;\uFFFD0script&gt;", "<\uFFFD0script>")
}
