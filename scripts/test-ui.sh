#!/usr/bin/env bash
# The browser, JupyterLab and host tests (`npm run test:browser`, `test:lab`, `test:hosts`) side by side: each step
# runs its own files one at a time as before, the three steps at once. They mostly wait (on chromium, JupyterLab,
# kernels, code-server: their CPU time is well below their wall time), so together they take about the longest
# one's wall time, not the sum (docs/testing.md, "The UI steps side by side").
# Each step writes to tests/ui/artifacts/steps/<step>.log; when it ends, its whole log is printed at once with its
# "== step: N s (cpu M s, load L)" line, so the steps' lines never interleave. The command fails when a step failed,
# naming the step and the test files that failed in it.
# scripts/test.sh runs this after vitest; alone, it makes the run-wide folder of executed notebooks test.sh makes.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH" PT2E_LENS_PYTHON="${PT2E_LENS_PYTHON:-$PWD/.venv/bin/python}"
export PT2E_LENS_PROGRESS="${PT2E_LENS_PROGRESS:-0}"
if [ -z "${PT2E_LENS_EXECUTED:-}" ]; then
  # one executed quickstart and one course build for all three steps (made by whichever file needs it first, the
  # others wait on its lock: tests/ui/notebook_page.py, book_build.py)
  export PT2E_LENS_EXECUTED="$PWD/tests/ui/artifacts/executed"
  rm -rf "$PT2E_LENS_EXECUTED"
fi
logs=tests/ui/artifacts/steps
mkdir -p "$logs"

# CPU seconds (user + system) of the processes the shell `pid` has waited for
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{ print int(($16 + $17) / hz) }' "/proc/$1/stat"; }
load() { cut -d' ' -f1 /proc/loadavg; }

# chromium and a fresh front end before any step starts: the three read the same build
start=$SECONDS
echo "== browser set-up"
bash scripts/ensure-chromium.sh
node scripts/build-fresh.mjs
echo "== browser set-up: $((SECONDS - start)) s (load $(load))"

# one step in a subshell of its own (its CPU is that subshell's waited children), all its output in its log
run_step() {
  local name=$1 log=$2 me=$BASHPID t0=$SECONDS cpu0 rc=0
  shift 2
  cpu0=$(cpu_of "$me")
  {
    echo "== $name"
    "$@" || rc=$?
    echo "== $name: $((SECONDS - t0)) s (cpu $(($(cpu_of "$me") - cpu0)) s, load $(load))"
  } >"$log" 2>&1
  return "$rc"
}

# the test files a failed step names as failing (node's TAP: a failed test's location, or a file that did not load)
failed_files() {
  grep -A12 -E '^ *not ok ' "$1" | sed -nE "s#^ *location: '([^:']+):[0-9]+:[0-9]+'#\1#p; s#^ *not ok [0-9]+ - (/.*\.mjs)\$#\1#p" |
    sed "s#^$PWD/##" | sort -u
}

declare -A name_of log_of
for spec in "browser tests:test:browser" "lab tests:test:lab" "host tests:test:hosts"; do
  name=${spec%%:*} script=${spec#*:}
  log="$logs/${script#test:}.log"
  run_step "$name" "$log" npm run --silent "$script" &
  name_of[$!]=$name log_of[$!]=$log
done
echo "== browser, lab and host tests side by side: each step's output when it ends (meanwhile in $logs/)"
failed=()
while [ ${#name_of[@]} -gt 0 ]; do
  rc=0
  wait -n -p pid "${!name_of[@]}" || rc=$?
  cat "${log_of[$pid]}"
  if [ "$rc" != 0 ]; then
    failed+=("${name_of[$pid]}")
    echo "== ${name_of[$pid]} FAILED (exit $rc); failing files:" $(failed_files "${log_of[$pid]}")
  fi
  unset "name_of[$pid]" "log_of[$pid]"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "== failed: ${failed[*]} (logs in $logs/)" >&2
  exit 1
fi
