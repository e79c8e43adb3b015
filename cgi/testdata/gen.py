#!/usr/bin/env python3
"""Generates encoded.json: texts encoded by Python's codecs, the independent
truth the cgi and cmd/cgigate tests compare the gateway's decoding with.
Run from this folder: python3 gen.py > encoded.json"""
import json

TEXTS = [
    ("shift_jis", "印刷"),
    ("shift_jis", "資料.txt"),
    ("euc_jp", "印刷"),
    ("euc_kr", "한국어"),
    ("gbk", "中文"),
    ("big5", "中文"),
    ("cp1251", "Привет"),
    ("iso2022_jp", "印刷"),
    ("shift_jis", "印刷します"),
    ("euc_jp", "印刷する"),
]
WHATWG = {"shift_jis": "shift_jis", "euc_jp": "euc-jp", "euc_kr": "euc-kr", "gbk": "gbk",
          "big5": "big5", "cp1251": "windows-1251", "iso2022_jp": "iso-2022-jp"}
out = [{"charset": WHATWG[c], "text": t, "hex": t.encode(c).hex()} for c, t in TEXTS]
print(json.dumps(out, ensure_ascii=False, indent=1))
