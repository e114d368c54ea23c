"""Pure functions from a Stage, GraphModule or ExportedProgram (via its snapshot) to small tables, and the
findings rules every snapshot carries."""

from .counts import diff_ops, node_count, op_counts
from .decomposition import Decomposition, decomposition
from .graph_walks import Chain, chain, focus
from .quantization import annotations, boundaries, findings, observers, qdq, sequence
from .source import snapshot
from .stage_diff import StageDiff, stage_diff
from .table import Table

__all__ = [
    "Chain",
    "Decomposition",
    "StageDiff",
    "Table",
    "annotations",
    "boundaries",
    "chain",
    "decomposition",
    "diff_ops",
    "findings",
    "focus",
    "node_count",
    "observers",
    "op_counts",
    "qdq",
    "sequence",
    "snapshot",
    "stage_diff",
]
