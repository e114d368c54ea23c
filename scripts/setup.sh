#!/usr/bin/env bash
# Set up everything pt2e-lens needs on a fresh machine: a venv with the CPU build of torch, and the
# package itself, editable, with its test tools. Its build runs `npm install` + `npm run build`
# (hatch-jupyter-builder): the anywidget and report bundles and the prebuilt JupyterLab extension.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${PT2E_LENS_VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
"$PY" -m pip install -q --upgrade pip
# torch first, pinned: this version's CPU wheel lies on this machine's disk; an unpinned torch
# (asked for by torchao's dependents) would pull a multi-GB CUDA build.
"$PY" -m pip install -q torch==2.13.0
# torch named again so no extra's requirement can swap it; the executorch extra lets CI lower to XNNPACK for real
"$PY" -m pip install -q -e ".[test,executorch]" torch==2.13.0
