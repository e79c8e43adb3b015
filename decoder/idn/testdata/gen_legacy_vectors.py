#!/usr/bin/env python3
"""Generate legacy-vectors.json: labels and their 2000-era IDN encodings.

Independent of the Go code under test: code points come from Python's ord(),
UTF-8 bytes from Python's own UTF-8 codec. The rules, from draft-jseng-utf5-01
and the double-hyphened UTF-8 proposal as the package documents them:

  * a label with a code point above U+024F: UTF-5, each code point as hex
    without leading zeros, first digit written G-V, the rest 0-9A-F, and
    "---" after the first letter;
  * another non-ASCII label: each UTF-8 byte >= 0x80 as X--Y, ASCII as is,
    a hyphen run of 2 as ----2, 3 as ----3, longer runs as 3s and 2s with
    no single hyphen left over.

Run from this folder: python3 gen_legacy_vectors.py > legacy-vectors.json
"""
import json
import re
import sys

LABELS = [
    "日本語", "αβ", "œuf", "feliĉulo",
    "café", "straße", "ñandú", "ĉu-ŝi", "ǅemal", "ɏ", "ɐ", "αβγ",
    "пример", "中文", "한국어", "مثال", "उदाहरण", "😀", "a😀b", "日本-go",
    "é-", "-é", "é--x", "é---x", "é----x", "é-----x", "é-------x",
    "Ā0", "0ā", "aé9", "é9--3",
]


def utf5(label):
    out = []
    for ch in label:
        h = "%x" % ord(ch)
        out.append("GHIJKLMNOPQRSTUV"[int(h[0], 16)] + h[1:].upper())
    s = "".join(out)
    return s[0] + "---" + s[1:]


def hyphen_run(n):
    if n == 1:
        return "-"
    parts = []
    while n > 0:
        k = 3 if n >= 3 and n - 3 != 1 else 2
        parts.append("----%d" % k)
        n -= k
    return "".join(parts)


def double_hyphened(label):
    out = []
    for b in label.encode("utf-8"):
        if b >= 0x80:
            h = "%02X" % b
            out.append(h[0] + "--" + h[1])
        else:
            out.append(chr(b))
    return "".join(out)


def encode(label):
    if any(ord(c) > 0x24F for c in label):
        return "UTF-5", utf5(label)
    # Escape hyphen runs of the label itself, then write non-ASCII bytes.
    pieces = re.split(r"(-+)", label)
    out = []
    for p in pieces:
        if p.startswith("-"):
            out.append(hyphen_run(len(p)))
        else:
            out.append(double_hyphened(p))
    return "double-hyphened UTF-8", "".join(out)


def main():
    rows = []
    for label in LABELS:
        form, enc = encode(label)
        rows.append({"label": label, "form": form, "encoded": enc})
    json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
