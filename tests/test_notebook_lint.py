"""Issue 18, point 7: the notebooks are linted like the code (scripts/test.sh runs ruff over notebooks/ too)."""

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parent.parent


def _ruff() -> list[str]:
    exe = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert exe, "ruff is a [test] dependency"
    return [exe]


def test_test_script_lints_the_notebooks():
    script = (REPO / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "ruff check kernel_pkg tests bench notebooks\n" in script
    assert "ruff format --check kernel_pkg tests bench notebooks\n" in script


def test_every_notebook_passes_ruff():
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 3
    done = subprocess.run([*_ruff(), "check", *map(str, notebooks)], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]
    fmt = subprocess.run([*_ruff(), "format", "--check", "notebooks"], cwd=REPO, capture_output=True, text=True)
    assert fmt.returncode == 0, fmt.stdout[-2000:]
