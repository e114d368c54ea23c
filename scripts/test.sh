#!/usr/bin/env bash
# Every test: Python (pytest, incl. real-kernel comm and notebook runs), the front end's unit tests
# (vitest) and browser tests (Debian chromium driven by playwright-core; JupyterLab with the panel).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH" PT2E_LENS_PYTHON="$PWD/.venv/bin/python"
# no progress bars in the outputs the tests read (tests/test_progress.py turns them on where it checks them)
export PT2E_LENS_PROGRESS=0
mkdir -p tests/ui/artifacts
# linters first: a tree that does not lint clean fails before any test runs
ruff check kernel_pkg tests bench notebooks
ruff format --check kernel_pkg tests bench notebooks
mypy  # the files and settings are in pyproject.toml
npm run lint
python -m pytest -q tests
npm test
npm run test:browser
npm run test:lab
# real hosts (code-server with our .vsix, ...) over one executed quickstart, made by the first that needs it
export PT2E_LENS_EXECUTED="$PWD/tests/ui/artifacts/executed"
rm -rf "$PT2E_LENS_EXECUTED"
npm run test:hosts
