"""No test waits on wall-clock time (issue 27 point 8): the browser and lab tests wait on the views' ready signal
(`tests/ui/settled.mjs`, docs/frontend.md "Ready signal") or on the DOM condition they read next, servers on what
they print. A fixed sleep passes on a quiet machine and fails on a busy one; this fails on a new one instead.

A zero-delay `setTimeout(r, 0)` is a turn of the event loop (the next task), not a wait on time, and stays allowed.
A bound on a failure (a deadline that rejects, a kill after a grace period) is no sleep either: it does not resolve
a wait. An entry in ALLOWED (file, the line's text) is for a sleep that is itself the thing under test, with why.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SKIP_DIRS = {"artifacts", "node_modules", "__pycache__", "fixtures"}
SUFFIXES = {".py", ".mjs", ".js", ".ts", ".cjs"}

# (what it is, pattern)
SLEEPS = [
    ("Playwright's waitForTimeout", re.compile(r"\bwaitForTimeout\s*\(")),
    ("time.sleep", re.compile(r"\btime\.sleep\s*\(")),
    ("asyncio.sleep", re.compile(r"\basyncio\.sleep\s*\(")),
    ("sleep imported from time", re.compile(r"^\s*from\s+time\s+import\s+.*\bsleep\b")),
    ("node:timers/promises (a promised sleep)", re.compile(r"""['"](node:)?timers/promises['"]""")),
    # a promise resolved by a timer with a delay: new Promise((r) => setTimeout(r, 300)), setTimeout(() => r(), 300)
    (
        "setTimeout resolving a wait after a delay",
        re.compile(r"setTimeout\(\s*(?:\w+|\(\)\s*=>\s*\w+\(\s*\))\s*,\s*(?!0\s*\))[^)\s]"),
    ),
]

# file (relative to tests/) → the exact stripped line allowed, and why: for a sleep that is itself the thing under
# test. None today.
ALLOWED: dict[str, dict[str, str]] = {}


def _files() -> list[Path]:
    out = []
    for p in sorted(TESTS.rglob("*")):
        if p.suffix in SUFFIXES and p.is_file() and not SKIP_DIRS & set(p.relative_to(TESTS).parts[:-1]):
            out.append(p)
    return out


def find_sleeps(text: str, rel: str) -> list[str]:
    """The lines of `text` (a file at `rel` under tests/) that sleep, as `rel:line: what: text`."""
    allowed = ALLOWED.get(rel, {})
    hits = []
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split("//")[0] if not rel.endswith(".py") else line.split("#")[0]
        for what, pat in SLEEPS:
            if pat.search(code) and line.strip() not in allowed:
                hits.append(f"{rel}:{n}: {what}: {line.strip()}")
    return hits


def test_no_fixed_sleeps_in_tests() -> None:
    me = Path(__file__).resolve()
    hits = []
    for p in _files():
        if p == me:
            continue
        hits += find_sleeps(p.read_text(encoding="utf-8"), p.relative_to(TESTS).as_posix())
    assert not hits, "wait on the ready signal (tests/ui/settled.mjs) or a condition, not on time:\n" + "\n".join(hits)


def test_the_lint_catches_each_kind() -> None:
    caught = [
        "await page.waitForTimeout(300);",
        "    time.sleep(0.5)",
        "await asyncio.sleep(1)",
        "from time import monotonic, sleep",
        "import { setTimeout as sleep } from 'node:timers/promises';",
        "await new Promise((r) => setTimeout(r, 500));",
        "await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));",
        "new Promise((r) => setTimeout(() => r(), 250))",
    ]
    for line in caught:
        assert find_sleeps(line, "x.mjs"), line
    passed = [
        "await new Promise((r) => setTimeout(r, 0));",  # the next task, not time
        "const t = setTimeout(() => proc.exitCode === null && proc.kill('SIGKILL'), 5000);",  # a failure's bound
        "limit = setTimeout(() => reject(new Error('not listening')), LIMIT);",
        "// await page.waitForTimeout(300) in a comment",
        "await settled(page, pane, () => input.fill(query));",
    ]
    for line in passed:
        assert not find_sleeps(line, "x.mjs"), line
