"""native_stderr_without drops the lines native code writes to fd 2 that match, and passes every other line on:
ExecuTorch's runtime logs its CPU probing from C++ on a lowered program's first run (issue 26.4, backends.ipynb);
the real run is checked in tests/test_notebook_backends.py (its stderr is empty)."""

import os
import re
import sys

from pt2e_lens._quiet import native_stderr_without
from pt2e_lens.backends.executorch_runner import CPUINFO_LINE


def test_matching_native_lines_are_dropped_and_the_rest_kept(capfd):
    with native_stderr_without(CPUINFO_LINE):
        os.write(2, b"[cpuinfo_utils.cpp:87] Failed to open midr file /sys/devices/soc0/image_version\n")
        os.write(2, b"a real error from C++\n")
        os.write(2, b"[cpuinfo_utils.cpp:125] CPU info and manual query on # of cpus dont match.\n")
    sys.stderr.flush()
    err = capfd.readouterr().err
    assert "a real error from C++" in err
    assert "cpuinfo" not in err


def test_lines_written_in_fragments_through_sys_stderr_are_matched_whole(capfd):
    """ExecuTorch's Python runtime writes its C++ log through sys.stderr piece by piece (seen in ipykernel)."""
    with native_stderr_without(CPUINFO_LINE):
        for piece in ["[", "cpuinfo_utils.cpp", ":", "125", "] ", "CPU info and manual query dont match.", "\n"]:
            sys.stderr.write(piece)
        sys.stderr.write("kept line\n")
    err = capfd.readouterr().err
    assert "kept line" in err and "cpuinfo" not in err


def test_stderr_works_after_the_block_even_when_it_raises(capfd):
    try:
        with native_stderr_without(re.compile("never")):
            os.write(2, b"inside\n")
            raise KeyError("boom")
    except KeyError:
        pass
    os.write(2, b"after\n")
    err = capfd.readouterr().err
    assert err.index("inside") < err.index("after")
