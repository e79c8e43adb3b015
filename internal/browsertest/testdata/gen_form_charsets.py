#!/usr/bin/env python3
"""Writes form_charsets.json: for pages in legacy charsets, what a browser
must send when a person types a text into a form's field q (the form also
has a _charset_ hidden field, which the browser fills with the page's
encoding name).

The bytes come from Python's codecs and urllib.parse.quote_plus,
independently of the code under test:
- "query" is the application/x-www-form-urlencoded string, sent as the
  query of a GET form and as the body of a POST form;
- "raw" is the field's value as bytes (base64 in the JSON), as a
  multipart/form-data part carries it.

A character the charset cannot encode is sent as a decimal numeric
character reference (WHATWG HTML, "converting a character encoding", error
mode "html"), which is Python's errors="xmlcharrefreplace".

The encoded texts hold no byte "~" or "*", the two on which quote_plus and
the WHATWG urlencoded byte serializer disagree (checked below), and characters on which Python's
codecs and the WHATWG encoders disagree (e.g. U+FF5E, U+2212, HKSCS in
Big5).

Run: python3 gen_form_charsets.py > form_charsets.json
"""
import base64
import json
import sys
import urllib.parse

# (HTML charset label, the name the browser puts in _charset_, Python codec, cases)
CHARSETS = [
    ("Shift_JIS", "Shift_JIS", "shift_jis", [
        ("two kanji are sent as their Shift_JIS bytes", "印刷"),
        ("a trail byte 0x5C (the so/hyo problem) is percent-encoded", "ソ表"),
        ("a trail byte in the ASCII range is sent literally", "テスト"),
        ("a space becomes a plus and ASCII stays as is", "テスト abc"),
        ("ampersand, plus, equals and percent are percent-encoded", "a&b+c=d%e"),
        ("half-width katakana are single bytes", "ｶﾀｶﾅ"),
        ("a Hangul syllable Shift_JIS lacks becomes a percent-encoded NCR", "印刷한"),
        ("an emoji outside the BMP becomes one NCR of its code point", "a😀b"),
    ]),
    ("EUC-JP", "EUC-JP", "euc_jp", [
        ("kanji and kana are sent as EUC-JP bytes", "印刷テスト"),
        ("a Hangul syllable EUC-JP lacks becomes an NCR", "한"),
    ]),
    ("ISO-2022-JP", "ISO-2022-JP", "iso2022_jp", [
        ("kanji are wrapped in escape sequences that end in ASCII", "日本"),
        ("ASCII around kanji switches state twice", "a印b"),
    ]),
    ("EUC-KR", "EUC-KR", "euc_kr", [
        ("Hangul is sent as EUC-KR bytes", "한국어"),
        ("a kana EUC-KR has is sent as its bytes", "テ"),
        ("an emoji becomes an NCR", "한😀"),
    ]),
    ("GBK", "GBK", "gbk", [
        ("simplified Chinese is sent as GBK bytes", "中文印刷"),
    ]),
    ("Big5", "Big5", "big5", [
        ("traditional Chinese is sent as Big5 bytes", "中文繁體"),
        ("a trail byte 0x5C is percent-encoded", "功"),
    ]),
    ("windows-1252", "windows-1252", "cp1252", [
        ("Latin-1 letters and the euro sign are single bytes", "café €"),
        ("a kanji windows-1252 lacks becomes an NCR", "印"),
    ]),
]

out = []
for label, name, codec, cases in CHARSETS:
    for case, text in cases:
        raw = text.encode(codec, errors="xmlcharrefreplace")
        # quote_plus keeps "~" and encodes "*"; the WHATWG serializer does
        # the opposite: keep such bytes out of the data.
        assert b"~" not in raw and b"*" not in raw, (label, text, raw)
        out.append({
            "charset": label,
            "charset_name": name,
            "name": case,
            "text": text,
            "raw": base64.b64encode(raw).decode("ascii"),
            "query": "_charset_=" + name + "&q=" + urllib.parse.quote_plus(raw),
        })
json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
sys.stdout.write("\n")
