#!/usr/bin/env bash
# The main job: set up, then start JupyterLab on the course notebooks (notebooks/) with pt2e-lens's
# renderer and PT2E side panel installed. Headless-safe: it opens no browser and prints the URL to open.
#   --report (or PT2E_LENS_DEMO=report): write the CLI report of every PT2E stage of the course's `tiny`
#            model instead, and exit. CI (CI set) always gets the report: a server never returns.
#   --check  (or PT2E_LENS_DEMO=check): start JupyterLab, check it serves the extension and the course
#            notebooks, stop it. PT2E_LENS_SETUP=skip skips the set-up (tests, which have just run it).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${PT2E_LENS_VENV:-.venv}
MODE=${PT2E_LENS_DEMO:-lab}
case "${1:-}" in
  --report) MODE=report ;;
  --check) MODE=check ;;
  "") ;;
  *) echo "usage: bash scripts/demo.sh [--report | --check]" >&2; exit 2 ;;
esac
if [ "$MODE" = lab ] && [ -n "${CI:-}" ]; then
  echo "pt2e-lens demo: CI is set, so the report instead of a JupyterLab server (which would never return)."
  MODE=report
fi
[ "${PT2E_LENS_SETUP:-}" = skip ] || bash scripts/setup.sh
export PATH="$PWD/$VENV/bin:$PATH"
FIRST=m00_3_decomposition.ipynb
LAB=(jupyter lab --no-browser --ServerApp.ip=127.0.0.1 --ServerApp.root_dir="$PWD/notebooks")
[ "$(id -u)" != 0 ] || LAB+=(--ServerApp.allow_root=True)

case "$MODE" in
  report)
    # --force: running the demo again replaces its own earlier report
    exec pt2e-lens report --example tiny --quantizer composable --out out/tiny --html out/tiny/report.html --force
    ;;
  check)
    exec python scripts/check_lab.py "${LAB[@]}"
    ;;
  lab)
    echo "pt2e-lens demo: JupyterLab on notebooks/ — open the URL below (the PT2E panel is in the right sidebar)."
    exec "${LAB[@]}" --LabApp.default_url="/lab/tree/$FIRST"
    ;;
  *)
    echo "PT2E_LENS_DEMO must be lab, report or check, got '$MODE'" >&2
    exit 2
    ;;
esac
