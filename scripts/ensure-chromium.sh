#!/usr/bin/env bash
# Browser tests use Debian's chromium (never a downloaded browser) and a CJK font (the zh-TW tests draw
# Chinese): install what is missing (root, apt).
set -euo pipefail
CHROMIUM="${PT2E_LENS_CHROMIUM:-/usr/bin/chromium}"
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
fc-list :lang=zh-tw 2>/dev/null | grep -q . || missing+=(fonts-noto-cjk)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "pt2e-lens: missing ${missing[*]}; install Debian's (apt-get install -y ${missing[*]})" >&2
  exit 1
fi
echo "pt2e-lens: installing Debian ${missing[*]} for the browser tests" >&2
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
