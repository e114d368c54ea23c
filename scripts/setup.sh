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
# The editable install copies the built JupyterLab extension into the venv; after a later `npm run build` JupyterLab
# and Notebook 7 would still load that old copy (Notebook 7 then asks for the new build's remoteEntry and gets a
# 404: no pt2e-lens output draws). Link it to the build instead, as `jupyter labextension develop` does. The link
# goes before pip runs again, so that pip's uninstall of the old copy never deletes through it.
LAB_EXT="$("$PY" -c 'import sys; print(sys.prefix)')/share/jupyter/labextensions/pt2e-lens"
if [ -L "$LAB_EXT" ]; then rm "$LAB_EXT"; fi
# torch named again so no extra's requirement can swap it; the executorch extra lets CI lower to XNNPACK for real
"$PY" -m pip install -q -e ".[test,executorch]" torch==2.13.0
rm -rf "$LAB_EXT"
ln -s "$PWD/extension/labextension" "$LAB_EXT"
