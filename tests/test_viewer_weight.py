"""What the viewer adds to every saved output (issue 9, "Weight"; issue 28 point 5): a budget in bytes, no clock.
bench/notebook_size.py measures the executed quickstart: besides the viewer its outputs carry 12.2 kB on average
(12,262 B: two copies of the packed View and the script-free fallback, its cells styled once per output; 2026-12-07),
so a viewer within this budget keeps the average at or under the goal's 120 kB (107,500 + 12,262 = 119,762 B).
docs/bench.md, "Weight", has the figures."""

import json

import pytest

from pt2e_lens._static import packed_viewer

VIEWER_BUDGET = 107_500  # bytes of the inlined viewer in a notebook file (91,513 on 2026-12-07)


def test_the_inlined_viewer_stays_within_its_budget():
    viewer = packed_viewer()
    if viewer is None:
        pytest.skip("the front end is not built")
    saved = len(json.dumps(viewer).encode()) - 2  # as the notebook's JSON holds it: its quotes escaped
    assert saved <= VIEWER_BUDGET, (
        f"the viewer inlined in each saved output is {saved:,} B, over its budget of {VIEWER_BUDGET:,} B: keep what "
        "a saved output does not need out of report.js (node bench/viewer_weight.mjs lists its modules), or measure "
        "bench/notebook_size.py and raise the budget with the goal's figure in docs/bench.md"
    )
