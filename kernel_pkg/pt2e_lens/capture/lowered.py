"""The "lowered" stage: the converted graph as a backend runs it (one outcome per node, docs/backends.md).

Its graph is the converted stage's graph; its snapshot is the converted snapshot plus the contract's
`backend` field (what the backend did with each node) and the backend findings.
"""

from __future__ import annotations

from typing import Any

import torch

from ..analyses.backend_findings import backend_findings
from ..backends import BackendRecord
from ..snapshot import Snapshot
from .stage import Stage


class LoweredStage(Stage):
    """A Stage whose `backend` is the BackendRecord the lowering returned (`runner` computes what it computes)."""

    backend: BackendRecord


def lowered_stage(converted: Stage, record: BackendRecord) -> LoweredStage:
    snap = lowered_snapshot(converted.snapshot, record)
    stage = LoweredStage(
        "lowered",
        make=lambda: converted.graph_module,
        record=converted.record,
        info={"backend": record.backend, "options": dict(record.options)},
        snapshot=snap,
    )
    stage.backend = record
    return stage


def lowered_snapshot(converted: Snapshot, record: BackendRecord) -> Snapshot:
    """The converted snapshot (its lists shared, not copied: a snapshot is read-only) with the backend's outcomes."""
    annotated = {a["node"] for a in converted.annotations}
    outcomes = {}
    for name, o in record.nodes.items():
        if name not in converted.node:
            continue  # a backend may name nodes of its own; the contract keeps the converted graph's
        entry: dict[str, Any] = {"outcome": o.outcome, "kernel": o.kernel, "reason": o.reason}
        if o.partition is not None:
            entry["partition"] = o.partition
        entry["annotated"] = name in annotated
        outcomes[name] = entry
    data = {**converted.data, "stage": "lowered"}
    data["backend"] = {
        "name": record.backend,
        "options": {k: _plain(v) for k, v in record.options.items()},
        "nodes": outcomes,
        "counts": record.counts(),
    }
    if "ops" in record.records:  # ExecuTorch's own op counts: the headline, not our per-node rows
        data["backend"]["ops"] = dict(record.records["ops"])
    snap = Snapshot(data)
    data["findings"] = list(converted.findings) + backend_findings(snap)
    return snap


def _plain(v: Any) -> Any:
    return v if v is None or isinstance(v, (bool, int, float, str)) else repr(v)


def inputs_from_graph(gm: torch.fx.GraphModule) -> tuple:
    """Inputs shaped like the exported example values (for a Run made from a graph without its inputs)."""
    out = []
    for n in gm.graph.nodes:
        if n.op != "placeholder":
            continue
        v = n.meta.get("val")
        if not isinstance(v, torch.Tensor):
            out.append(v)
            continue
        shape = [d if type(d) is int else 2 for d in v.shape]
        out.append(
            torch.randn(shape, dtype=v.dtype) if v.dtype.is_floating_point else torch.zeros(shape, dtype=v.dtype)
        )
    return tuple(out)
