#!/usr/bin/env python3
"""Write python-codecs.json: real text encoded by Python's codecs (and
checked against glibc iconv where it is installed), the independent truth
for decoder/charset's Decode and Encode tests.

Run from the repository root:  python3 testdata/charset/gen.py

Each case is only kept when Python can encode the text strictly. The texts
avoid the few characters where Python's tables differ from the WHATWG
Encoding Standard's on purpose (Shift_JIS/EUC-JP: U+2212 MINUS SIGN vs
U+FF0D, U+FF5E vs U+301C, U+00A2/U+00A3/U+00AC vs their fullwidth forms;
Big5: the HKSCS extensions, and the kana, which Python's big5 has at the
ETEN positions C6-C7 and WHATWG's Big5 (HKSCS-based) elsewhere, so Japanese
text is not encoded as big5; KOI8-U: the Belarusian/Ukrainian ў at AE/BE,
which WHATWG's KOI8-U (really KOI8-RU) has and Python's lacks).
"""
import json
import os
import shutil
import subprocess
import sys
import unicodedata

TEXTS = [
    ("ja", "日本語のテキスト"),
    ("ja", "東京都千代田区"),
    ("ja", "印刷 する"),
    ("ja", "こんにちは、世界。"),
    ("ja", "カタカナとひらがなと漢字"),
    ("ja", "名前=山田&年齢=30"),
    ("ja", "「検索」ボタンを押してください"),
    ("ko", "안녕하세요"),
    ("ko", "대한민국 서울특별시"),
    ("ko", "한국어 텍스트 검색"),
    ("zh-Hans", "中华人民共和国"),
    ("zh-Hans", "简体中文测试"),
    ("zh-Hans", "北京欢迎你！"),
    ("zh-Hans", "搜索=电脑&页=2"),
    ("zh-Hant", "繁體中文測試"),
    ("zh-Hant", "臺灣台北市"),
    ("zh-Hant", "資訊安全與網路"),
    ("zh-Hant", "香港特別行政區"),
    ("zh-Hant", "電腦程式設計，搜尋＝關鍵字"),
    ("zh-Hant", "國立臺灣大學圖書館"),
    ("ru", "Привет, мир!"),
    ("ru", "Съешь же ещё этих мягких французских булок, да выпей чаю"),
    ("uk", "Україна, Київ, їжак, ґанок, єнот"),
    ("el", "Καλημέρα κόσμε"),
    ("el", "Ελληνικά γράμματα"),
    ("cs", "Příliš žluťoučký kůň úpěl ďábelské ódy"),
    ("pl", "Zażółć gęślą jaźń"),
    ("hu", "Árvíztűrő tükörfúrógép"),
    ("tr", "Türkçe: ğüşıöç İĞÜŞÖÇ"),
    ("th", "ภาษาไทย สวัสดีครับ"),
    ("vi", "Tiếng Việt có dấu"),
    ("he", "שלום עולם"),
    ("ar", "مرحبا بالعالم"),
    ("lt", "Lietuvių kalba, latviešu valoda"),
    ("fr", "Façade naïve, café crème brûlée – « guillemets »"),
    ("de", "Grüße aus Köln: Straße, Äpfel, Öl"),
    ("es", "¿Qué tal? ¡Olé! Año, niño"),
    ("en", "“Smart quotes” — and the € sign…"),
]

# Python codec, WHATWG label, iconv name.
CODECS = [
    ("shift_jis", "shift_jis", "SHIFT_JIS"),
    ("euc_jp", "euc-jp", "EUC-JP"),
    ("iso2022_jp", "iso-2022-jp", "ISO-2022-JP"),
    ("euc_kr", "euc-kr", "EUC-KR"),
    ("gbk", "gbk", "GBK"),
    ("gb18030", "gb18030", "GB18030"),
    ("big5", "big5", "BIG5"),
    ("cp1250", "windows-1250", "CP1250"),
    ("cp1251", "windows-1251", "CP1251"),
    ("cp1252", "windows-1252", "CP1252"),
    ("cp1253", "windows-1253", "CP1253"),
    ("cp1254", "windows-1254", "CP1254"),
    ("cp1255", "windows-1255", "CP1255"),
    ("cp1256", "windows-1256", "CP1256"),
    ("cp1257", "windows-1257", "CP1257"),
    ("cp1258", "windows-1258", "CP1258"),
    ("koi8_r", "koi8-r", "KOI8-R"),
    ("koi8_u", "koi8-u", "KOI8-U"),
    ("iso8859_2", "iso-8859-2", "ISO-8859-2"),
    ("iso8859_7", "iso-8859-7", "ISO-8859-7"),
    ("cp874", "windows-874", "CP874"),
]

TONES = {"\u0300", "\u0301", "\u0303", "\u0309", "\u0323"}


def windows1258_form(text):
    """Vietnamese as windows-1258 writes it: base letters precomposed
    (â ê ô ơ ư ă đ), tone marks as combining characters."""
    out = []
    for ch in text:
        try:
            ch.encode("cp1258")
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        d = unicodedata.normalize("NFD", ch)
        tones = [c for c in d if c in TONES]
        base = unicodedata.normalize("NFC", "".join(c for c in d if c not in TONES))
        out.append(base + "".join(tones))
    return "".join(out)


def iconv(text, name):
    if shutil.which("iconv") is None:
        return None
    p = subprocess.run(["iconv", "-f", "UTF-8", "-t", name], input=text.encode("utf-8"),
                       capture_output=True)
    if p.returncode != 0:
        return b""
    return p.stdout


def main():
    cases = []
    for codec, label, iconv_name in CODECS:
        for lang, text in TEXTS:
            if codec == "big5" and lang == "ja":
                continue  # kana sit elsewhere in WHATWG's Big5: see above
            if codec == "cp1258" and lang == "vi":
                text = windows1258_form(text)
            try:
                b = text.encode(codec)
            except UnicodeEncodeError:
                continue
            if b == text.encode("ascii", "ignore"):
                continue  # pure ASCII proves nothing
            case = {"codec": codec, "label": label, "lang": lang, "text": text, "hex": b.hex()}
            ib = iconv(text, iconv_name)
            if ib is None:
                case["iconv"] = "absent"
            elif ib == b"":
                case["iconv"] = "refused"
            elif ib == b:
                case["iconv"] = "same"
            else:
                case["iconv"] = "differs: " + ib.hex()
            cases.append(case)
    out = {
        "generator": "testdata/charset/gen.py",
        "python": sys.version.split()[0],
        "iconv": subprocess.run(["iconv", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
        if shutil.which("iconv") else "absent",
        "cases": cases,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python-codecs.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    by = {}
    for c in cases:
        by[c["codec"]] = by.get(c["codec"], 0) + 1
    print(len(cases), "cases:", by)
    for c in cases:
        if c["iconv"] != "same":
            print("iconv", c["codec"], c["text"], c["iconv"])


if __name__ == "__main__":
    main()
