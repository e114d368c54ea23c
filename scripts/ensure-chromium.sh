#!/usr/bin/env bash
# Browser tests use Debian's chromium (never a downloaded browser). Install it when missing (root, apt).
set -euo pipefail
CHROMIUM="${PT2E_LENS_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "pt2e-lens: $CHROMIUM is missing; install Debian's chromium (apt-get install -y chromium)" >&2
  exit 1
fi
echo "pt2e-lens: installing Debian chromium for the browser tests" >&2
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
