"""Every test belongs to exactly one tier (issue 27 point 9; tests/_tiers.py): each Python test file is placed in the
fast tier or marked full-only by what it uses, each browser test file is a host's smoke test or full-only; the full
command runs every one of them, the fast command exactly the fast ones."""

from __future__ import annotations

import json
import re
from pathlib import Path

import tomllib
from _tiers import FAST, FULL_ONLY, SLOW_MARKERS, UI_FAST, fast_expression

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
UI = TESTS / "ui"


def _python_test_files() -> set[str]:
    return {p.name for p in TESTS.glob("test_*.py")}


def _ui_test_files() -> set[str]:
    return {p.name for p in UI.iterdir() if re.search(r"\.(test|lab|host)\.mjs$", p.name)}


def test_every_python_test_file_is_in_exactly_one_tier() -> None:
    files = _python_test_files()
    both = FAST & set(FULL_ONLY)
    assert not both, f"in both tiers: {sorted(both)}"
    unplaced = files - FAST - set(FULL_ONLY)
    assert not unplaced, f"place these in tests/_tiers.py (FAST, or FULL_ONLY with what they use): {sorted(unplaced)}"
    gone = (FAST | set(FULL_ONLY)) - files
    assert not gone, f"tests/_tiers.py names files that do not exist: {sorted(gone)}"


def test_full_only_files_say_what_they_use_by_registered_markers() -> None:
    registered = {
        m.split(":")[0]
        for m in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"]
    }
    assert set(SLOW_MARKERS) <= registered, sorted(set(SLOW_MARKERS) - registered)
    for name, uses in FULL_ONLY.items():
        assert uses and set(uses) <= set(SLOW_MARKERS), (name, uses)


def test_every_collected_test_of_a_full_only_file_carries_its_markers(request) -> None:
    """conftest.py puts the markers on; the fast tier's -m expression then leaves each such test out."""
    session = request.session
    for item in session.items:
        want = FULL_ONLY.get(item.path.name)
        if want:
            have = {m.name for m in item.iter_markers()}
            assert set(want) <= have, (item.nodeid, want, have)


def test_the_fast_command_runs_the_fast_tier() -> None:
    sh = (ROOT / "scripts/test.sh").read_text()
    fast = sh.split('if [ "$fast" = 1 ]; then', 1)[1].split("\nfi\n", 1)[0]
    # pytest with the expression from _tiers.py, and exactly the smoke files of UI_FAST
    assert 'python -m pytest -q tests -m "$(python tests/_tiers.py)"' in fast
    assert fast_expression() == "not (" + " or ".join(sorted(SLOW_MARKERS)) + ")"
    assert set(re.findall(r"tests/ui/([\w.-]+\.mjs)", fast)) == set(UI_FAST)
    assert set(UI_FAST) <= _ui_test_files()


def test_the_full_command_runs_every_test() -> None:
    sh = (ROOT / "scripts/test.sh").read_text()
    full = sh.split("\nfi\n", 1)[1]
    # every Python test (no -m, no -k, no file list), every TS test, every browser file through the npm scripts
    assert "step pytest python -m pytest -q tests -n 2 --dist loadfile\n" in full
    assert "step vitest npm test\n" in full
    # the three browser steps side by side (scripts/test-ui.sh), each through its npm script
    assert 'step "browser, lab and host tests" bash scripts/test-ui.sh\n' in full
    ui_sh = (ROOT / "scripts/test-ui.sh").read_text()
    assert re.findall(r'"[\w ]+:(test:\w+)"', ui_sh) == ["test:browser", "test:lab", "test:hosts"]
    scripts = json.loads((ROOT / "package.json").read_text())["scripts"]
    # node --test on the folder runs every *.test.mjs; the lab files are listed; the host files go by a glob
    assert scripts["test:browser"].endswith(" tests/ui/")
    listed = set(re.findall(r"tests/ui/([\w.-]+\.lab\.mjs)", scripts["test:lab"]))
    ui = _ui_test_files()
    assert listed == {f for f in ui if f.endswith(".lab.mjs")}, "test:lab lists every *.lab.mjs"
    assert scripts["test:hosts"].endswith("tests/ui/*.host.mjs")
    assert scripts["test"].endswith("vitest run")
