"""What every analysis reads: the snapshot of a Stage, a Run (its newest stage), a GraphModule or an
ExportedProgram, with its findings."""

from __future__ import annotations

from typing import Any

from .._graph import as_graph_module
from ..snapshot import HasSnapshot, Snapshot, build
from .findings import with_findings
from .why_lines import with_why


def snapshot(x: Any) -> Snapshot:
    """The snapshot of a Stage (cached, with the findings capture recorded), Run, GraphModule or ExportedProgram."""
    if isinstance(x, Snapshot):
        return x
    if isinstance(x, HasSnapshot):
        return x.snapshot
    return with_why(with_findings(build(as_graph_module(x))))
