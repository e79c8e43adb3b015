#!/usr/bin/env python3
"""Writes charsets.json: requests in legacy charsets, one per source the
gateway may take a request's charset from (the JSON field
"charset_source": hint, _charset_, content-type, config, sniffed,
default), for integration/charset_test.go to send through Apache.

The bytes come from Python's codecs and urllib.parse.quote, independently of
the code under test. For each case:
- "query" is the query string to send (GET) and "body" the POST body, both
  already percent-encoded;
- "keywords" (ISINDEX) or "fields" (a form) are what the gateway must
  decode them to, as [name, value] pairs in order;
- "charset" is the WHATWG name it must report, "source" the source.

Cases that need the server configured with CGIGATE_CHARSET name it in
"config".

Run: python3 gen.py > charsets.json
"""
import json
import sys
import urllib.parse


def pct(text, codec):
    """Every byte outside the unreserved set percent-encoded (RFC 3986 2.3)."""
    return urllib.parse.quote(text.encode(codec), safe="")


def form(pairs, codec):
    return "&".join(pct(n, codec) + "=" + pct(v, codec) for n, v in pairs)


CASES = []


def add(**kw):
    kw.setdefault("method", "GET")
    kw.setdefault("content_type", "")
    kw.setdefault("config", "")
    kw.setdefault("keywords", [])
    kw.setdefault("fields", [])
    kw.setdefault("query", "")
    kw.setdefault("body", "")
    CASES.append(kw)


# A "[charset:encoding]:" hint at the head of an ISINDEX query.
words = ["印刷", "技術"]
add(name="a [JIS0208:EUC]: hint names EUC-JP for the ISINDEX words after it",
    query="[JIS0208:EUC]:" + "+".join(pct(w, "euc_jp") for w in words),
    keywords=words, charset="euc-jp", source="hint")
words = ["Москва", "Россия"]
add(name="a [windows-1251]: hint names the Cyrillic code page",
    query="[windows-1251]:" + "+".join(pct(w, "cp1251") for w in words),
    keywords=words, charset="windows-1251", source="hint")

# _charset_, the field browsers fill with the form's encoding (HTML 4.10.21.4).
pairs = [("_charset_", "Shift_JIS"), ("q", "印刷の歴史")]
add(name="a _charset_ field in a GET query names Shift_JIS",
    query=form(pairs, "shift_jis"), fields=[[n, v, "query"] for n, v in pairs],
    charset="shift_jis", source="_charset_")
pairs = [("q", "서울 특별시"), ("_charset_", "EUC-KR")]
add(name="a _charset_ field after the text in a POST body names EUC-KR",
    method="POST", content_type="application/x-www-form-urlencoded",
    body=form(pairs, "euc_kr"), fields=[[n, v, "body"] for n, v in pairs],
    charset="euc-kr", source="_charset_")

# The charset parameter of the body's Content-Type.
pairs = [("q", "臺灣 繁體中文")]
add(name="a charset parameter on the POST's Content-Type names Big5",
    method="POST", content_type="application/x-www-form-urlencoded; charset=big5",
    body=form(pairs, "big5"), fields=[[n, v, "body"] for n, v in pairs],
    charset="big5", source="content-type")

# The deployment's charset (SetEnv CGIGATE_CHARSET).
pairs = [("q", "Съешь же ещё этих мягких булок")]
add(name="CGIGATE_CHARSET set in httpd.conf decides when the request names none",
    config="windows-1251", query=form(pairs, "cp1251"),
    fields=[[n, v, "query"] for n, v in pairs], charset="windows-1251", source="config")

# Sniffed from the bytes.
pairs = [("q", "日本語の文字コードを自動的に判定するための試験用の文章です。")]
add(name="EUC-JP bytes with no charset named anywhere are sniffed",
    query=form(pairs, "euc_jp"), fields=[[n, v, "query"] for n, v in pairs],
    charset="euc-jp", source="sniffed")
pairs = [("q", "Grüße aus Köln, 東京 und Москва")]
add(name="UTF-8 bytes with no charset named anywhere are sniffed as UTF-8",
    query=form(pairs, "utf_8"), fields=[[n, v, "query"] for n, v in pairs],
    charset="utf-8", source="sniffed")

# Nothing to go by: ASCII is the same in every charset, UTF-8 is the default.
pairs = [("q", "plain ASCII, 100% & more")]
add(name="an ASCII-only query falls back to the UTF-8 default",
    query=form(pairs, "ascii"), fields=[[n, v, "query"] for n, v in pairs],
    charset="utf-8", source="default")

json.dump(CASES, sys.stdout, ensure_ascii=False, indent=1)
sys.stdout.write("\n")
