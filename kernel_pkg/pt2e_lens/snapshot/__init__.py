"""The snapshot: one graph at one stage as the versioned JSON contract (docs/contract.md)."""

from __future__ import annotations

import gc
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import torch

from .._graph import as_graph_module
from ..schema import SCHEMA_VERSION, SNAPSHOT_FORMAT
from ..schema.load import load_snapshot
from ._nodes import nodes_and_edges
from ._observers import observers
from ._qdq import qdq
from ._specs import SpecTable, annotations

FORMAT = SNAPSHOT_FORMAT


@dataclass
class CaptureRecord:
    """What only capture time can know: who annotated each node, which observer serves which key."""

    blame: dict[str, str] = field(default_factory=dict)  # node name → quantizer class name
    serves: dict[tuple, str] | None = None  # ("edge", src, dst) | ("node", n) → observer module name
    # observer module name → (scale, zero_point) as convert_pt2e computed them: HistogramObserver's
    # calculate_qparams costs ~0.3 s per observer, so a calibrated stage reuses convert's answer
    qparams: dict[str, tuple[list, list]] = field(default_factory=dict)
    skipped_by: dict[str, list[str]] = field(default_factory=dict)  # node → later sub-quantizers that skipped it
    problems: list[dict] = field(default_factory=list)  # pl.check's findings on the quantizer, as Finding dicts


class Snapshot:
    """A graph's nodes, edges, specs, annotations, observers and q/dq as plain JSON-ready data."""

    def __init__(self, data: dict):
        self.data = data

    # -- the contract's fields, for analyses
    stage = property(lambda self: self.data["stage"])
    nodes = property(lambda self: self.data["nodes"])
    edges = property(lambda self: self.data["edges"])
    specs = property(lambda self: self.data["specs"])
    annotations = property(lambda self: self.data["annotations"])
    observers = property(lambda self: self.data["observers"])
    qdq = property(lambda self: self.data["qdq"])
    findings = property(lambda self: self.data["findings"])

    @cached_property
    def node(self) -> dict[str, dict]:
        return {n["id"]: n for n in self.nodes}

    @cached_property
    def spec(self) -> dict[str, dict]:
        return {s["id"]: s for s in self.specs}

    @cached_property
    def users(self) -> dict[str, list[str]]:
        out: dict[str, dict[str, None]] = {n["id"]: {} for n in self.nodes}  # dicts: ordered and O(1) dedup
        for e in self.edges:
            out[e["src"]][e["dst"]] = None
        return {k: list(v) for k, v in out.items()}

    @cached_property
    def inputs(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {n["id"]: [] for n in self.nodes}
        for e in self.edges:
            out[e["dst"]].append(e["src"])
        return out

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.data, indent=indent, allow_nan=False, separators=None if indent else (",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Snapshot:
        """A snapshot saved by `to_json`, checked against the contract (docs/contract.md) before anything reads it.

        Bad input (not JSON, NaN, deep nesting, a missing or mistyped field, an unknown node id) raises one
        Pt2eLensError line."""
        return cls(load_snapshot(text))

    def __repr__(self) -> str:
        return f"<Snapshot stage={self.stage!r} nodes={len(self.nodes)} observers={len(self.observers)} qdq={len(self.qdq)}>"


def _versions() -> dict[str, str]:
    import torchao

    return {"torch": torch.__version__, "torchao": getattr(torchao, "__version__", "unknown")}


def build(
    gm: torch.fx.GraphModule,
    stage: str | None = None,
    record: CaptureRecord | None = None,
) -> Snapshot:
    # The snapshot is acyclic dicts and lists, ~10 per node: at 20k nodes they push a full cyclic-GC
    # pass over the whole heap (graph, FakeTensors, program) that costs more than the build itself.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _build(gm, stage, record)
    finally:
        if paused:
            gc.enable()


def _build(gm: torch.fx.GraphModule, stage: str | None, record: CaptureRecord | None) -> Snapshot:
    modules = dict(gm.named_modules(remove_duplicate=False))
    nodes, edges = nodes_and_edges(gm, modules)
    by_id = {n["id"]: n for n in nodes}
    specs = SpecTable()
    anns = annotations(gm, specs, record.blame if record else {}, record.skipped_by if record else {})
    obs = observers(gm, modules, by_id, specs, record.serves if record else None, record.qparams if record else None)
    data = {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "stage": stage,
        "meta": {"node_count": len(nodes), **_versions()},
        "nodes": nodes,
        "edges": edges,
        "specs": specs.specs,
        "annotations": anns,
        "observers": obs,
        "qdq": qdq(gm, by_id),
        "findings": [],
    }
    from ..why.findings import explain  # the rules read the finished snapshot

    snap = Snapshot(data)
    data["findings"] = explain(snap, record.problems if record else None)
    return snap


def snapshot(x: Any) -> Snapshot:
    """The snapshot of a Stage (cached), GraphModule or ExportedProgram."""
    if isinstance(x, Snapshot):
        return x
    latest = getattr(x, "latest", None)  # a Run: its newest stage
    cached = getattr(latest or x, "snapshot", None)
    if isinstance(cached, Snapshot):
        return cached
    return build(as_graph_module(x))
