#!/usr/bin/env python3
"""Make encode.json: text encoded in a charset by Python's codecs, then
percent-encoded the classic form way (letters, digits and *-.@_ kept, space
as '+'). The decoder's EncodeForm/EncodeKeywords and its decoding are tested
against these bytes. Run from this folder: python3 gen_encode.py > encode.json
"""
import json
import urllib.parse

CASES = [
    ("shift_jis", "shift_jis", "印刷 する"),
    ("shift_jis", "shift_jis", "東京都 渋谷区"),
    ("euc-jp", "euc_jp", "印刷.html"),
    ("euc-jp", "euc_jp", "日本語のテキスト"),
    ("iso-2022-jp", "iso2022_jp", "こんにちは 世界"),
    ("euc-kr", "euc_kr", "한국어 검색"),
    ("gbk", "gbk", "中文 搜索"),
    ("gb18030", "gb18030", "中文 汉字"),
    ("big5", "big5", "繁體 中文"),
    ("windows-1251", "cp1251", "Привет мир"),
    ("windows-1250", "cp1250", "Příliš žluťoučký kůň"),
    ("windows-1252", "cp1252", "café crème €5"),
    ("windows-1253", "cp1253", "Καλημέρα κόσμε"),
    ("windows-1254", "cp1254", "İstanbul ğüşöç"),
    ("windows-1255", "cp1255", "שלום עולם"),
    ("windows-1256", "cp1256", "مرحبا بالعالم"),
    ("windows-1257", "cp1257", "Ąžuolas ėjo"),
    ("windows-1258", "cp1258", "Viet Nam"),
    ("koi8-r", "koi8_r", "Москва"),
    ("koi8-u", "koi8_u", "Київ"),
    ("iso-8859-2", "iso8859_2", "Łódź"),
    ("iso-8859-7", "iso8859_7", "Αθήνα"),
    ("windows-874", "cp874", "ภาษาไทย"),
    ("utf-8", "utf_8", "印刷 する ünïcödé 😀"),
    ("utf-8", "utf_8", "a+b=c&d"),
]


def classic(b: bytes) -> str:
    return urllib.parse.quote_plus(b, safe="*@").replace("~", "%7E")


out = []
for name, codec, text in CASES:
    raw = text.encode(codec)
    out.append({
        "charset": name,
        "text": text,
        "hex": raw.hex(),
        "value": classic(raw),
        "keywords": "+".join(classic(w.encode(codec)) for w in text.split(" ")),
    })
print(json.dumps(out, ensure_ascii=False, indent=1))
