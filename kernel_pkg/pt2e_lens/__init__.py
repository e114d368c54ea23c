"""pt2e-lens: see what a torchao PT2E quantizer did — annotations, observers, q/dq, decompositions.

    import pt2e_lens as pl
    run = pl.capture(model, example_inputs, quantizer, calibration=batches)
    pl.observers(run["prepared"])
"""
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
from .widget import LensWidget, compare, show

__version__ = "0.1.0"


def load_ipython_extension(ip) -> None:
    """`%load_ext pt2e_lens`: the %pt2e magics, the current-model tracker and the `pt2e-lens` comm."""
    from .kernel import load_ipython_extension as load

    load(ip)


def unload_ipython_extension(ip) -> None:
    from .kernel import unload_ipython_extension as unload

    unload(ip)


__all__ = [
    "LensWidget", "Pt2eLensError", "Run", "SCHEMA_VERSION", "Snapshot", "Stage", "Table", "annotations", "boundaries",
    "capture", "chain", "compare", "decomposition", "diff_ops", "focus", "node_count", "observers", "op_counts", "qdq",
    "quiet", "sequence", "show", "snapshot", "stage_diff",
]
