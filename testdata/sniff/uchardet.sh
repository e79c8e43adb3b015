#!/bin/sh
# Runs uchardet (Debian package uchardet) on every string of corpus.jsonl and
# writes uchardet.tsv: hex bytes, uchardet's answer, and whether decoding the
# bytes with that answer through Python's codecs gives back the text exactly
# (1) or not (0). decoder/sniff's accuracy test reads the file to compare with
# uchardet on machines without it; TestUchardetOutputIsCurrent checks the
# answers against a live uchardet where one is installed.
#
# Run from the project root:  sh testdata/sniff/uchardet.sh
set -eu
dir=$(dirname "$0")
uchardet -v >&2
python3 - "$dir/corpus.jsonl" "$dir/uchardet.tsv" <<'PY'
import codecs, json, subprocess, sys, tempfile, unicodedata

def decodes(raw, name, text):
    if name in ("unknown", ""):
        return False
    name = {"ascii": "ascii", "uhc": "cp949", "mac-centraleurope": "mac_latin2"}.get(name.lower(), name)
    try:
        codecs.lookup(name)
        got = raw.decode(name)
    except (LookupError, UnicodeDecodeError):
        return False
    return unicodedata.normalize("NFC", got) == text

with open(sys.argv[1], encoding="utf-8") as f, open(sys.argv[2], "w") as out, tempfile.NamedTemporaryFile() as tmp:
    for line in f:
        row = json.loads(line)
        raw = bytes.fromhex(row["hex"])
        tmp.seek(0); tmp.truncate(); tmp.write(raw); tmp.flush()
        name = subprocess.run(["uchardet", tmp.name], capture_output=True, text=True, check=True).stdout.strip()
        out.write("%s\t%s\t%d\n" % (row["hex"], name, decodes(raw, name, row["text"])))
PY
