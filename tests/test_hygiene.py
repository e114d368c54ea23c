"""Tracked files name no path of one machine (a home, /root or /work folder)."""

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent
MACHINE_PATH = r"(^|[^[:alnum:]_.:/])/(work|root|home)/"


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="not a git checkout")
def test_no_path_of_this_machine_in_tracked_files():
    found = subprocess.run(["git", "grep", "-nE", MACHINE_PATH], cwd=REPO, capture_output=True, text=True)
    assert found.returncode == 1, found.stdout[:2000]  # git grep: 1 = no match, 0 = matches
