"""pt2e-lens: see what a torchao PT2E quantizer did — annotations, observers, q/dq, decompositions.

    import pt2e_lens as pl
    run = pl.capture(model, example_inputs, quantizer, calibration=batches)
    pl.observers(run["prepared"])
"""
from ._ipython import install_short_errors
from ._quiet import quiet
from .analyses import (
    Table,
    annotations,
    boundaries,
    chain,
    decomposition,
    diff_ops,
    focus,
    node_count,
    observers,
    op_counts,
    qdq,
    sequence,
    stage_diff,
)
from .capture import Run, Stage, capture
from .errors import Pt2eLensError
from .snapshot import SCHEMA_VERSION, Snapshot, snapshot
from .why import accuracy, blame, check, compare_orders, findings, sharing
from .display import View, compare, show
from .widget import LensWidget, widget

__version__ = "0.1.0"

install_short_errors()


def load_ipython_extension(ip) -> None:
    """`%load_ext pt2e_lens`: the %pt2e magics, the current-model tracker and the `pt2e-lens` comm."""
    from .kernel import load_ipython_extension as load

    load(ip)


def unload_ipython_extension(ip) -> None:
    from .kernel import unload_ipython_extension as unload

    unload(ip)


__all__ = [
    "LensWidget", "Pt2eLensError", "Run", "SCHEMA_VERSION", "Snapshot", "Stage", "Table", "accuracy", "annotations",
    "blame", "boundaries", "capture", "chain", "check", "compare", "compare_orders", "decomposition", "diff_ops",
    "findings", "focus", "node_count", "observers", "op_counts", "qdq", "quiet", "sequence", "sharing", "show",
    "snapshot", "stage_diff", "View", "widget",
]
