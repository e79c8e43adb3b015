#!/usr/bin/env python3
"""Writes shift_jis_form.json: what a browser must send for a GET form on a
Shift_JIS page with a _charset_ hidden field and one text field q.

The bytes come from Python's codecs (shift_jis) and urllib.parse.quote_plus,
independently of the code under test. A character Shift_JIS cannot encode is
sent by browsers as a decimal numeric character reference (WHATWG HTML,
"application/x-www-form-urlencoded serializer" with encoding override: the
encoder's error mode is "html"), which is Python's errors="xmlcharrefreplace".

The texts avoid "~" and "*", the two characters on which quote_plus and the
WHATWG urlencoded byte serializer disagree, and characters where Python's
shift_jis differs from WHATWG Shift_JIS (e.g. U+FF5E, U+2212).

Run: python3 gen_shift_jis_form.py > shift_jis_form.json
"""
import json
import sys
import urllib.parse

CASES = [
    ("two kanji are sent as their Shift_JIS bytes", "印刷"),
    ("a trail byte 0x5C (the so/hyo problem) is percent-encoded", "ソ表"),
    ("a trail byte in the ASCII range is sent literally", "テスト"),
    ("a space becomes a plus and ASCII stays as is", "テスト abc"),
    ("ampersand, plus, equals and percent are percent-encoded", "a&b+c=d%e"),
    ("half-width katakana are single bytes", "ｶﾀｶﾅ"),
    ("a Hangul syllable Shift_JIS lacks becomes a percent-encoded NCR", "印刷한"),
    ("an emoji outside the BMP becomes one NCR of its code point", "a😀b"),
]

out = []
for name, text in CASES:
    raw = text.encode("shift_jis", errors="xmlcharrefreplace")
    out.append({
        "name": name,
        "text": text,
        "query": "_charset_=Shift_JIS&q=" + urllib.parse.quote_plus(raw),
    })
json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
sys.stdout.write("\n")
