"""The pt2e-lens work each benchmark times, shared by capture.py and the Model Explorer worker."""

from __future__ import annotations

from typing import Any


def pl_snapshot_and_analyses(ep: Any, other: Any = None) -> dict:
    """pl.snapshot + every analysis, as a user would call them on one ExportedProgram.

    `stage_diff` needs two graphs: it compares the snapshot with `other` (another stage) when given,
    else with itself (every node kept: the name/target alignment runs over the whole graph).
    `focus` picks the graph's most common call_function op with 2 hops.

    Model Explorer converts the program's own graph (`ep.graph_module`, parameters lifted to inputs), so
    that is the graph timed here: `pl.snapshot(ep)` reads `ep.module()` instead (the graph PT2E annotates),
    and building that module is torch's cost (~1 s at 5k nodes, once per program), not pt2e-lens's.
    """
    import pt2e_lens as pl

    snap = pl.snapshot(getattr(ep, "graph_module", ep))
    counts = pl.op_counts(snap)
    top = counts.most_common(1)[0][0] if counts else "placeholder"
    return {
        "snapshot": snap,
        "op_counts": counts,
        "annotations": pl.annotations(snap),
        "observers": pl.observers(snap),
        "qdq": pl.qdq(snap),
        "stage_diff": pl.stage_diff(other if other is not None else snap, snap),
        "focus": pl.focus(snap, top, hops=2),
    }
