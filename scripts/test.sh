#!/usr/bin/env bash
# Every test (no argument; what CI runs, .ci/run): Python (pytest, incl. real-kernel comm and notebook runs), the
# front end's unit tests (vitest) and browser tests (Debian chromium driven by playwright-core; JupyterLab with the
# panel; real hosts).
# --fast: the fast tier (tests/_tiers.py): the same lints, the Python tests that use no Inductor, ExecuTorch, QAT
# convert, kernel, notebook run, dask, fresh interpreters, real model families or course chapters, the TypeScript
# unit tests, and one smoke test per host (static report, anywidget + VS Code renderer, JupyterLab).
# Each step prints its wall time, CPU time and the load average at its end ("== step: N s (cpu M s, load L)"), so a
# slow one shows, also on a busy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
case "${1:-}" in
  --fast) fast=1 ;;
  "") ;;
  *)
    echo "usage: bash scripts/test.sh [--fast]" >&2
    exit 2
    ;;
esac
# CPU seconds (user + system) of the processes this shell has waited for: on a shared machine a step's wall time
# follows the load, its CPU time much less (what it would take alone, on one core)
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ print int(($16 + $17) / hz) }' "/proc/$$/stat"; }
step() {
  local name=$1 start=$SECONDS cpu0
  cpu0=$(cpu_s)
  shift
  echo "== $name"
  "$@"
  echo "== $name: $((SECONDS - start)) s (cpu $(($(cpu_s) - cpu0)) s, load $(cut -d' ' -f1 /proc/loadavg))"
}
# the editable install builds the front end (npm run build): once per run, the browser tests find it fresh
step setup bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH" PT2E_LENS_PYTHON="$PWD/.venv/bin/python"
# no progress bars in the outputs the tests read (tests/test_progress.py turns them on where it checks them)
export PT2E_LENS_PROGRESS=0
mkdir -p tests/ui/artifacts
# the quickstart executed once per run, in a fresh folder: pytest's notebook test, the nbconvert page test and the
# real hosts (code-server with our .vsix, ...) read that one copy (tests/ui/notebook_page.py, executed.mjs); the
# course chapters too: pytest's chapter test and the book the host tests build (tests/ui/book_build.py)
export PT2E_LENS_EXECUTED="$PWD/tests/ui/artifacts/executed"
rm -rf "$PT2E_LENS_EXECUTED"
# one Inductor cache for the run, shared by every process (pytest, its subprocesses, notebook kernels): warm after
# the first compile of a graph, fresh per run (pl.backend's own compiles use none: it must watch each lowering)
export TORCHINDUCTOR_CACHE_DIR="$PWD/tests/ui/artifacts/inductor-cache"
rm -rf "$TORCHINDUCTOR_CACHE_DIR"
# linters first: a tree that does not lint clean fails before any test runs
step "ruff check" ruff check kernel_pkg tests bench notebooks
step "ruff format" ruff format --check kernel_pkg tests bench notebooks
step mypy mypy # the files and settings are in pyproject.toml
step "npm run lint" npm run lint
if [ "$fast" = 1 ]; then
  step "pytest (fast tier)" env PT2E_LENS_HYPOTHESIS=fast python -m pytest -q tests -m "$(python tests/_tiers.py)" -n 2 --dist loadfile --durations=15
  step vitest npm test
  # one smoke test per host: the same files as tests/_tiers.py UI_FAST
  step "browser smoke" bash -c 'bash scripts/ensure-chromium.sh && node scripts/build-fresh.mjs &&
    node --test --test-concurrency=1 --test-timeout=1800000 tests/ui/packed.test.mjs tests/ui/hosts.test.mjs tests/ui/lab.test.mjs'
  exit 0
fi
# two workers (this machine's two cores), each taking whole files: a file's module fixtures (a kernel, an Inductor
# compile, an executed notebook) are still made once; the shared folders above are safe between them (Inductor's
# cache locks its entries; each notebook copy is written by one file and read back whole)
step pytest python -m pytest -q tests -n 2 --dist loadfile
step vitest npm test
# the browser, lab and host tests side by side (they mostly wait): each prints its own step line when it ends
step "browser, lab and host tests" bash scripts/test-ui.sh
