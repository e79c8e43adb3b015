package decoder

import "strings"

// Hint is a charset named by the historical "[charset:encoding]:" syntax of
// the 1990s internationalised-URL proposals, at the head of a query string
// or right after a URL's scheme ("http:[EUC]//www.jacme.co.jp/...").
type Hint struct {
	Label string // what stood between the brackets, e.g. "JIS0208:EUC"
	// Charset is the label resolved to a WHATWG name, or "" when the label
	// names only a family of encodings (see Family).
	Charset string
	// Family lists the WHATWG names a bare encoding form ("[EUC]") may mean;
	// sniffing chooses among them.
	Family []string
}

// hintCharset maps a character set and an encoding form, as the two-part hint
// names them, to one encoding. Names are compared case-insensitively with
// '-' and '_' ignored.
//
//	[JIS0208:EUC]      euc-jp       [KSC5601:EUC]   euc-kr
//	[JIS0208:SJIS]     shift_jis    [GB2312:EUC]    gbk
//	[JIS0208:ISO2022]  iso-2022-jp  [BIG5:BIG5]     big5
//	[JIS0212:EUC]      euc-jp       [UCS:UTF8]      utf-8
//	[KSC5601:ISO2022]  iso-2022-kr  (refused: WHATWG decodes it to U+FFFD)
//	[GB2312:HZ]        hz-gb-2312   (refused likewise)
//
// A bare family: [EUC] is euc-jp, euc-kr or gbk; [SJIS] shift_jis;
// [JIS] and [ISO2022] iso-2022-jp. Any other label is looked up as a WHATWG
// or IANA label ("[Shift_JIS]", "[EUC-KR]", "[windows-1251]").
//
// Both are switches rather than maps: a map literal is built at package
// init, in every CGI process, and most requests carry no hint.
func hintCharset(key string) (string, bool) {
	switch key {
	case "JIS0208:EUC", "JIS0212:EUC", "JISX0208:EUC":
		return "euc-jp", true
	case "JIS0208:SJIS", "JIS0208:SHIFTJIS", "JISX0208:SJIS", "SJIS":
		return "shift_jis", true
	case "JIS0208:ISO2022", "JIS0208:JIS", "JIS", "ISO2022":
		return "iso-2022-jp", true
	case "KSC5601:EUC", "KSX1001:EUC":
		return "euc-kr", true
	case "KSC5601:ISO2022":
		return "iso-2022-kr", true
	case "GB2312:EUC", "GBK:GBK":
		return "gbk", true
	case "GB2312:HZ":
		return "hz-gb-2312", true
	case "GB18030:GB18030":
		return "gb18030", true
	case "BIG5:BIG5", "BIG5":
		return "big5", true
	case "UCS:UTF8", "UNICODE:UTF8", "ISO10646:UTF8":
		return "utf-8", true
	}
	return "", false
}

// hintFamily is the charsets a bare family names.
func hintFamily(key string) []string {
	if key == "EUC" {
		return []string{"euc-jp", "euc-kr", "gbk"}
	}
	return nil
}

func hintKey(label string) string {
	return strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToUpper(label))
}

// ParseHint removes a "[charset:encoding]:" or "[encoding]:" hint from the
// head of s. ok is false when s starts with none; rest is then s.
// The label is not checked here: Decode reports an unknown one.
func ParseHint(s string) (h Hint, rest string, ok bool) {
	if len(s) < 4 || s[0] != '[' {
		return Hint{}, s, false
	}
	end := strings.Index(s, "]:")
	if end < 2 || strings.ContainsAny(s[1:end], "[]&=+%/") {
		return Hint{}, s, false
	}
	return resolveHint(s[1:end]), s[end+2:], true
}

// ParseURLHint removes a hint that follows a URL's scheme, in either of
// the forms the proposals used: "http:[EUC]//host/" and "http:[EUC]://host/".
// It returns the URL without the hint.
func ParseURLHint(u string) (h Hint, url string, ok bool) {
	colon := strings.IndexByte(u, ':')
	if colon < 1 || colon+1 >= len(u) || u[colon+1] != '[' {
		return Hint{}, u, false
	}
	end := strings.IndexByte(u[colon+1:], ']')
	if end < 2 {
		return Hint{}, u, false
	}
	end += colon + 1
	label := u[colon+2 : end]
	if strings.ContainsAny(label, "[/?#&=%") {
		return Hint{}, u, false
	}
	rest := strings.TrimPrefix(u[end+1:], ":")
	return resolveHint(label), u[:colon+1] + rest, true
}

func resolveHint(label string) Hint {
	h := Hint{Label: label}
	key := hintKey(label)
	if fam := hintFamily(key); fam != nil {
		h.Family = fam
		return h
	}
	if name, ok := hintCharset(key); ok {
		h.Charset = name
		return h
	}
	// "[charset:encoding]" with a charset we do not know: try the
	// encoding part, then the whole label, as ordinary labels.
	if i := strings.IndexByte(label, ':'); i >= 0 {
		h = resolveHint(label[i+1:])
		h.Label = label
		return h
	}
	h.Charset = label
	return h
}
