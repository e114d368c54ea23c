"""README's main command: `bash scripts/demo.sh` starts JupyterLab on the course notebooks with the extension.
`--check` runs that very command line on a free port, asks the server for the extension and the notebooks,
and stops it (the set-up is skipped: the test run has just done it)."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).parent.parent


def demo(*args, **env):
    return subprocess.run(
        ["bash", "scripts/demo.sh", *args],
        cwd=ROOT,
        env={**os.environ, "PT2E_LENS_SETUP": "skip", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_demo_serves_the_extension_and_the_course_notebooks():
    out = demo("--check")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "the extension and 3 course notebooks are served" in out.stdout


def test_demo_refuses_unknown_arguments_in_one_line():
    out = demo("--bogus")
    assert out.returncode == 2 and out.stderr.strip() == "usage: bash scripts/demo.sh [--report | --check]"
    out = demo(PT2E_LENS_DEMO="bogus")
    assert out.returncode == 2 and "PT2E_LENS_DEMO must be lab, report or check" in out.stderr
