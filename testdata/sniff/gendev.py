#!/usr/bin/env python3
"""Builds testdata/sniff/dev.jsonl: the tuning set of decoder/sniff.

The held-out corpus (corpus.jsonl, gen.py) is only measured, never tuned
on. The sniffer's few hand-set weights (priors, class and symbol costs) were
tuned on this set instead: words drawn at random from the same hunspell
dictionaries the tables are built from (so it says nothing about
generalisation, only about the weights), plus phrases and everyday words
written for this file alone (Chinese, Japanese, Korean with Latin letters,
and the Latin-script languages). Words of the held-out corpus are skipped.
Same format as corpus.jsonl.

Run from the project root (needs Debian's hunspell-* packages):
    python3 testdata/sniff/gendev.py
"""

import json
import os
import random
import unicodedata

from gen import CODECS, CORPUS, bucket, encode

DICTS = {
    "ru": ("ru_RU", "utf-8", ["windows-1251", "koi8-r"]),
    "uk": ("uk_UA", "utf-8", ["windows-1251", "koi8-u"]),
    "bg": ("bg_BG", "utf-8", ["windows-1251"]),
    "el": ("el_GR", "iso8859_7", ["windows-1253", "iso-8859-7"]),
    "cs": ("cs_CZ", "utf-8", ["windows-1250", "iso-8859-2"]),
    "sk": ("sk_SK", "utf-8", ["windows-1250"]),
    "pl": ("pl_PL", "iso8859_2", ["windows-1250", "iso-8859-2"]),
    "hu": ("hu_HU", "utf-8", ["windows-1250", "iso-8859-2"]),
    "hr": ("hr_HR", "utf-8", ["windows-1250"]),
    "tr": ("tr_TR", "utf-8", ["windows-1254"]),
    "he": ("he_IL", "utf-8", ["windows-1255"]),
    "ar": ("ar", "utf-8", ["windows-1256"]),
    "vi": ("vi_VN", "utf-8", ["windows-1258"]),
    "th": ("th_TH", "utf-8", ["windows-874"]),
    "fr": ("fr", "utf-8", ["windows-1252"]),
    "de": ("de_DE", "utf-8", ["windows-1252"]),
    "es": ("es_ES", "utf-8", ["windows-1252"]),
    "pt": ("pt_PT", "utf-8", ["windows-1252"]),
    "sv": ("sv_SE", "utf-8", ["windows-1252"]),
    "lt": ("lt_LT", "iso8859_13", ["windows-1257"]),
    "lv": ("lv_LV", "utf-8", ["windows-1257"]),
    "et": ("et_EE", "iso8859_15", ["windows-1257"]),
    "ko-dict": ("ko", "utf-8", ["euc-kr"]),
}

HAND = {
    "ja": (["shift_jis", "euc-jp", "iso-2022-jp"], [
        "神戸", "牛丼", "野球", "時計", "コーヒー", "名古屋", "郵便局", "お弁当", "桜の開花", "電子辞書",
        "横浜中華街の地図", "ホテルの予約", "東京駅から品川駅", "アニメの新作情報", "自転車の修理", "英会話スクール",
        "住所から郵便番号を検索する", "週末の天気はどうなりますか", "日本酒の美味しい飲み方",
        "iPhoneケース", "USBメモリ", "CD-ROMドライブ", "Windows10の設定", "JR東日本", "NHKニュース",
    ]),
    "zh-Hans": (["gbk"], [
        "广州", "深圳", "银行", "学校", "饭店", "火锅", "足球", "地铁", "长城", "熊猫",
        "广州天气", "深圳房价", "银行利率", "高考分数线", "在线翻译", "世界杯足球赛", "苹果手机价格",
        "从广州到深圳怎么坐车", "这家饭店的菜很好吃", "明天会不会下雨呢",
        "iPhone手机壳", "USB数据线", "MP3播放器", "CCTV新闻", "Python教程",
    ]),
    "zh-Hant": (["big5"], [
        "廣州", "銀行", "學生", "飯店", "火鍋", "足球", "捷運", "長城", "熊貓", "颱風",
        "台中天氣", "房屋貸款", "銀行利率", "大學排名", "線上翻譯", "世界盃足球賽", "蘋果手機價格",
        "從台北到台中怎麼坐車", "這家飯店的菜很好吃", "明天會不會下雨呢",
        "iPhone手機殼", "USB隨身碟", "MP3播放器", "Python教學",
    ]),
    "ko": (["euc-kr"], ["USB 메모리", "아이폰X", "KTX 예매", "PC방", "Windows 설치"]),
    # Everyday words and short searches, written for this file.
    "pl": (["windows-1250", "iso-8859-2"], [
        "ręka", "mięso", "pióro", "łóżko", "żaba", "ściana", "świat", "dzień", "część", "wąż",
        "Łódź", "Poznań", "Gdańsk mapa", "pogoda Kraków", "bilety lotnicze", "ogłoszenia",
        "szkoła", "błąd", "ślub", "róża",
    ]),
    "cs": (["windows-1250", "iso-8859-2"], [
        "pivo", "chléb", "město", "hrad", "Ústí", "Čechy", "smažený sýr", "jídlo", "vláda",
        "nádraží", "počítač", "zpráva", "ulice", "řidič", "kočka", "sníh", "září", "být",
    ]),
    "fr": (["windows-1252"], [
        "âge", "rôle", "naïf", "garçon", "déjà", "près", "très", "août", "cœur", "hôpital",
        "théâtre", "école", "leçon", "rêve", "Orléans", "Besançon", "fête des mères",
    ]),
    "de": (["windows-1252"], [
        "Öse", "Maß", "Säge", "Flüsse", "Häuser", "Brötchen", "Ärzte", "fröhlich", "Grüße",
        "Schlüssel", "Lübeck", "Göttingen", "Mädchen",
    ]),
    "es": (["windows-1252"], [
        "acción", "árbol", "jamón", "corazón", "Perú", "Bogotá", "cañón", "sueño", "búsqueda",
        "ciudad de México", "día", "país",
    ]),
    "et": (["windows-1257"], [
        "töö", "süda", "küla", "võti", "pärn", "õde", "märts", "jõgi", "Pärnu", "Võru", "ülikool",
    ]),
    "lt": (["windows-1257"], [
        "ačiū", "žmogus", "šeima", "vaikų", "Kaunas miestas", "lėktuvas", "ąsotis", "ūgis", "švente",
    ]),
    "lv": (["windows-1257"], [
        "paldies", "ģimene", "pilsēta", "skola Rīgā", "ķirsis", "dūmi", "zaļš", "mēness", "dzīve",
    ]),
    "tr": (["windows-1254"], [
        "şehir", "çocuk", "ığdır", "gönül", "ekmek fırını", "köprü", "Eskişehir", "Muğla", "ılık", "öğle",
    ]),
    "hu": (["windows-1250", "iso-8859-2"], [
        "kenyér", "szép", "Szeged", "hűtő", "gyümölcs", "nő", "ütő", "fürdő", "Győr-Moson", "sör",
    ]),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    held = set()
    for _, (_, strings) in CORPUS.items():
        for s in strings:
            held.update(w.lower() for w in s.split())
    rng = random.Random(20261201)
    rows = []
    for lang, (f, enc, charsets) in DICTS.items():
        words = []
        with open("/usr/share/hunspell/%s.dic" % f, encoding=enc, errors="replace") as fh:
            next(fh)
            for line in fh:
                w = unicodedata.normalize("NFC", line.split("/")[0].split("\t")[0].split(" ")[0].strip())
                if w and w.isalpha() and w.lower() not in held:
                    words.append(w)
        short = [w for w in words if len(w) <= 4]
        ascii_words = [w for w in words if all(ord(c) < 128 for c in w)] or words
        made = 0
        while made < 32:
            # 8 strings for each length bucket, and 8 long ones that are
            # mostly ASCII: one word with non-ASCII letters among plain ones.
            want = ("2-4", "5-12", "13-40", "13-40")[made // 8]
            if want == "2-4":
                text = rng.choice(short)
            elif made >= 24:
                ws = [rng.choice(ascii_words), rng.choice(ascii_words), rng.choice(words)]
                rng.shuffle(ws)
                text = " ".join(ws)
            else:
                text = " ".join(rng.choice(words) for _ in range(1 if want == "5-12" else 3))
            if not 2 <= len(text) <= 40 or bucket(len(text)) != want or all(ord(c) < 128 for c in text):
                continue
            try:
                encoded = [(cs, encode(text, cs)) for cs in charsets]
            except UnicodeEncodeError:
                continue
            for cs, raw in encoded:
                rows.append({"lang": lang.split("-")[0], "text": text, "charset": cs, "hex": raw.hex(), "bucket": bucket(len(text))})
            made += 1
    for lang, (charsets, strings) in HAND.items():
        for text in strings:
            if all(ord(c) < 128 for c in text):
                continue  # nothing to sniff
            for cs in charsets:
                rows.append({"lang": lang, "text": text, "charset": cs, "hex": encode(text, cs).hex(), "bucket": bucket(len(text))})
    with open(os.path.join(here, "dev.jsonl"), "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(len(rows), "rows")


if __name__ == "__main__":
    main()
