#!/usr/bin/env bash
# Run browser/lab test files N times in a row, stopping at the first failure (issue 27 point 8: the files that
# read view state must pass 10 times in a row on a busy machine). Prints each run's result, wall time and load.
#   bash scripts/repeat.sh 10 tests/ui/label-fit.test.mjs tests/ui/output-reading.lab.mjs
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:?usage: bash scripts/repeat.sh N FILE...}
shift
[ "$#" -gt 0 ] || { echo "usage: bash scripts/repeat.sh N FILE..." >&2; exit 2; }
export PATH="$PWD/.venv/bin:$PATH" PT2E_LENS_PYTHON="$PWD/.venv/bin/python" PT2E_LENS_PROGRESS=0
mkdir -p tests/ui/artifacts
if [ -z "${PT2E_LENS_EXECUTED:-}" ]; then
  # the executed quickstart and course book made once for all the runs, as one test command does (test-ui.sh):
  # the runs repeat the tests' own waits, not the notebooks' execution (300 s of a course-fit.host run at load 11)
  export PT2E_LENS_EXECUTED="$PWD/tests/ui/artifacts/executed-repeat"
  rm -rf "$PT2E_LENS_EXECUTED"
fi
for file in "$@"; do
  # a log per file: two loops may run side by side (e.g. lab files and host files)
  log="tests/ui/artifacts/repeat-$(basename "$file").log"
  for i in $(seq 1 "$n"); do
    start=$SECONDS
    load0=$(cut -d' ' -f1 /proc/loadavg)
    if node --test --test-concurrency=1 --test-timeout=3600000 "$file" > "$log" 2>&1; then
      echo "$file run $i/$n: pass, $((SECONDS - start)) s, load $load0 → $(cut -d' ' -f1 /proc/loadavg)"
    else
      echo "$file run $i/$n: FAIL after $((SECONDS - start)) s, load $load0 → $(cut -d' ' -f1 /proc/loadavg)"
      tail -40 "$log"
      exit 1
    fi
  done
done
