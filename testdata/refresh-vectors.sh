#!/usr/bin/env bash
# Fetches the third-party vectors under testdata/whatwg-encoding and
# testdata/wpt again from upstream, each at the commit named below; README.md
# beside this script names the same commits, with each file's source and
# licence. It needs curl and the network, and is not run by CI: the tests
# read the committed copies.
#
# To move to a newer upstream: change a commit here and in README.md, run
# this script, look at `git diff --stat testdata/`, and run the tests that
# read the files (README.md lists them). Every file is fetched before any is
# replaced, so a failed fetch leaves testdata/ as it was.
#
# RAW overrides where raw files come from (default
# https://raw.githubusercontent.com), e.g. a file:// mirror laid out as
# OWNER/REPO/COMMIT/PATH.
set -euo pipefail
cd "$(dirname "$0")"

whatwg_encoding=a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a # whatwg/encoding
wpt=d1655f32e1b75a6f052a26647f1c108b7b4f689e             # web-platform-tests/wpt
ada=308110b26b32d12db492d460a41e57932366269d             # ada-url/ada
raw="${RAW:-https://raw.githubusercontent.com}"

# Each line: the vendored path under testdata/, then its upstream
# OWNER/REPO/COMMIT/PATH.
files=(
  "whatwg-encoding/encodings.json whatwg/encoding/$whatwg_encoding/encodings.json"
)
for index in big5 euc-kr gb18030 gb18030-ranges iso-2022-jp-katakana jis0208 jis0212 windows-1252; do
  files+=("whatwg-encoding/index-$index.txt whatwg/encoding/$whatwg_encoding/index-$index.txt")
done
files+=(
  "wpt/urlencoded-parser-data.json web-platform-tests/wpt/$wpt/url/resources/urlencoded-parser-data.json"
  # ada vendors wpt's url/resources/urltestdata.json; this is the copy the
  # tests were written against.
  "wpt/urltestdata.json ada-url/ada/$ada/tests/wpt/urltestdata.json"
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${files[@]}"; do
  read -r dest src <<<"$f"
  mkdir -p "$tmp/$(dirname "$dest")"
  echo "fetch $raw/$src"
  curl -fsSL --retry 3 -o "$tmp/$dest" "$raw/$src"
done
for f in "${files[@]}"; do
  read -r dest _ <<<"$f"
  mkdir -p "$(dirname "$dest")"
  mv "$tmp/$dest" "$dest"
done
sha256sum whatwg-encoding/* wpt/*
