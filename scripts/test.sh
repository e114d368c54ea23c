#!/usr/bin/env bash
# Every test: Python (pytest, incl. real-kernel comm and notebook runs), the front end's unit tests
# (vitest) and browser tests (Debian chromium driven by playwright-core; JupyterLab with the panel).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if ! command -v chromium >/dev/null 2>&1; then
  # Debian's chromium: browser tests never download a browser of their own
  (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || { echo "could not install chromium (apt-get)"; exit 1; }
fi
export PATH="$PWD/.venv/bin:$PATH" PT2E_LENS_PYTHON="$PWD/.venv/bin/python"
mkdir -p tests/ui/artifacts
python -m pytest -q tests
npm test
npm run test:browser
npm run test:lab
