"""Pure functions from a Stage, GraphModule or ExportedProgram (via its snapshot) to small tables, and the
findings rules every snapshot carries."""

from .backend import backend
from .counts import diff_ops, node_count, op_counts
from .decomposition import Decomposition, decomposition
from .focus import ModuleScope, Pt2eLensWarning, focus, module
from .graph_walks import Chain, chain
from .quantization import annotations, boundaries, findings, observers, qdq, sequence
from .source import snapshot
from .stage_diff import StageDiff, stage_diff
from .table import Table

__all__ = [
    "Chain",
    "Decomposition",
    "ModuleScope",
    "Pt2eLensWarning",
    "StageDiff",
    "Table",
    "annotations",
    "backend",
    "boundaries",
    "chain",
    "decomposition",
    "diff_ops",
    "findings",
    "focus",
    "module",
    "node_count",
    "observers",
    "op_counts",
    "qdq",
    "sequence",
    "snapshot",
    "stage_diff",
]
