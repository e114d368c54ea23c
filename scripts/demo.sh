#!/usr/bin/env bash
# The main job: capture every PT2E stage of the course's `tiny` model and report it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/pt2e-lens report --example tiny --quantizer composable --out out/tiny --html out/tiny/report.html
