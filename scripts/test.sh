#!/usr/bin/env bash
# Every test: Python (pytest), then the front end's unit and browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -q tests
