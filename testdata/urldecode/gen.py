#!/usr/bin/env python3
"""Writes cases.json, the truth cmd/urldecode's tests compare the built
binary against. Every byte here comes from Python's codecs, every escape
from this file's own classic form escaper or from urllib.parse.quote, and
every punycode host from Python's "idna" codec (IDNA 2003; only names that
IDNA 2003 and UTS #46 nontransitional agree on are used), none from the
code under test.

Run from the repository root:  python3 testdata/urldecode/gen.py
"""
import json
import os
import urllib.parse

# (text, Python codec, WHATWG name, hint label as the 1990s wrote it)
TEXTS = [
    ("印刷", "euc_jp", "euc-jp", "JIS0208:EUC"),
    ("日本語の検索", "shift_jis", "shift_jis", "Shift_JIS"),
    ("カタカナ", "iso2022_jp", "iso-2022-jp", "JIS0208:ISO2022"),
    ("한국어", "euc_kr", "euc-kr", "KSC5601:EUC"),
    ("中文搜索", "gbk", "gbk", "GB2312:EUC"),
    ("繁體中文", "big5", "big5", "BIG5:BIG5"),
    ("Привет мир", "cp1251", "windows-1251", "windows-1251"),
    ("Καλημέρα", "iso8859_7", "iso-8859-7", "ISO-8859-7"),
    ("café crème", "cp1252", "windows-1252", "ISO-8859-1"),
    ("Żółć", "iso8859_2", "iso-8859-2", "ISO-8859-2"),
    ("ünïcödé ✓", "utf_8", "utf-8", "UCS:UTF8"),
    ("привет", "koi8_r", "koi8-r", "KOI8-R"),
]

SAFE = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-.@_")


def classic(b: bytes) -> str:
    """HTML 2.0 section 8.2.1: space is '+', all but the safe set %XY."""
    return "".join(chr(c) if c in SAFE else "+" if c == 0x20 else "%%%02X" % c for c in b)


WHATWG_SAFE = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")


def whatwg(b: bytes) -> str:
    """URL Standard section 5.2: the application/x-www-form-urlencoded
    percent-encode set leaves only these and turns space into '+'."""
    return "".join(chr(c) if c in WHATWG_SAFE else "+" if c == 0x20 else "%%%02X" % c for c in b)


def every_byte(b: bytes) -> str:
    """Every byte escaped, as the 1990s examples wrote their URLs."""
    return "".join("%%%02X" % c for c in b)


def pchar(b: bytes) -> str:
    """RFC 3986 section 3.3 pchar: unreserved, sub-delims, ':' and '@' kept."""
    return urllib.parse.quote(b, safe="!$&'()*+,;=:@")


decode = []
encode = []
for text, codec, name, hint in TEXTS:
    raw = text.encode(codec)
    word = text.split()[0]
    esc_word = every_byte(word.encode(codec))
    # A path and a query in one charset, named by a hint after the scheme.
    decode.append({
        "name": f"a {name} path and query under a [{hint}] hint after the scheme",
        "args": [f"http:[{hint}]//www.example.com/{esc_word}/x.html?q={every_byte(raw)}"],
        "url": f"http://www.example.com/{word}/x.html?q=" + text.replace(" ", "+"),
        "charset": name, "charset_source": "hint",
        "segments": [word, "x.html"], "kind": "form",
        "fields": [{"name": "q", "value": text, "source": "query"}],
    })
    # The same bytes as an ISINDEX query named by -charset.
    decode.append({
        "name": f"{name} ISINDEX keywords under -charset",
        "args": ["-charset", name, "/cgi-bin/search?" + classic(raw)],
        "url": "/cgi-bin/search?" + text.replace(" ", "+"),
        "charset": name, "charset_source": "config",
        "segments": ["cgi-bin", "search"], "kind": "isindex",
        "keywords": text.split(),
    })
    # Classic form encoding, both shapes.
    if codec != "iso2022_jp":  # ESC is escaped like any byte; kept for decode only
        encode.append({
            "name": f"{name} ISINDEX words",
            "args": ["-encode", "-charset", name, text],
            "out": "+".join(classic(w.encode(codec)) for w in text.split()),
        })
        encode.append({
            "name": f"{name} name=value pairs",
            "args": ["-encode", "-charset", name, f"q={text}&lang=x y"],
            "out": "q=" + classic(raw) + "&lang=x+y",
        })
    encode.append({
        "name": f"a {name} URL with path, query and host",
        "args": ["-encode", "-charset", name, f"http://www.example.com/{word}/a b?q={text}"],
        "out": f"http://www.example.com/{pchar(word.encode(codec))}/a%20b?q="
        + "+".join(classic(w.encode(codec)) for w in text.split()),
    })

# A browser of today escapes '@', the classic way did not; in Shift_JIS
# and Big5 the byte 0x40 is also a trail byte (ァ is 83 40,
# 一 in Big5 is A4 40).
for text, codec, name in [("ァ to info@example.jp", "shift_jis", "shift_jis"),
                          ("一 @", "big5", "big5"), ("é@x", "utf_8", "utf-8")]:
    raw = text.encode(codec)
    encode.append({
        "name": f"a {name} form the classic way keeps 0x40 as '@'",
        "args": ["-encode", "-charset", name, "q=" + text],
        "out": "q=" + classic(raw),
    })
    encode.append({
        "name": f"a {name} form the URL Standard's way escapes 0x40",
        "args": ["-encode", "-whatwg", "-charset", name, "q=" + text],
        "out": "q=" + whatwg(raw),
    })

# Hosts: Unicode <-> ASCII by Python's idna codec.
hosts = []
for u in ["münchen.de", "bücher.example", "日本語.jp", "пример.рф", "παράδειγμα.gr", "例え.テスト", "www.example.com"]:
    hosts.append({"unicode": u, "ascii": u.encode("idna").decode("ascii")})

out = {"decode": decode, "encode": encode, "hosts": hosts}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json")
with open(path, "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False, indent=1)
    f.write("\n")
