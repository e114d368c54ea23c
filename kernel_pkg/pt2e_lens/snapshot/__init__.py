"""The snapshot: one graph at one stage as the versioned JSON contract (docs/contract.md)."""

from __future__ import annotations

import gc
import json
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property

import torch

from ..errors import first_line
from ..schema import SCHEMA_VERSION, SNAPSHOT_FORMAT
from ..schema.load import load_snapshot
from ._nodes import nodes_and_edges
from ._nodes import provenance as provenance  # re-exported: the kernel names a decomposed graph by it
from ._observers import observers
from ._qdq import qdq
from ._specs import SpecTable
from ._specs import annotations as annotation_dicts
from .inserted import roles_from_provenance

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
    # node → (quantize | dequantize, observer module name): what convert inserted for each observer (a graph diff)
    qdq_roles: dict[str, tuple[str, str]] = field(default_factory=dict)
    # which annotator looked at / wrote each node while the quantizer annotated (prepare/watched_annotators.py)
    annotators: dict = field(default_factory=dict)


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
        return self._links[0]

    @cached_property
    def inputs(self) -> dict[str, list[str]]:
        return self._links[1]

    @cached_property
    def _links(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Users (each once, in edge order) and inputs (every edge, repeats kept) per node, in one pass."""
        with _no_cyclic_gc():  # two lists per node: acyclic, and a GC pass here would walk the whole heap
            return self._link_tables()

    def _link_tables(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        users: dict[str, list[str]] = {}
        inputs: dict[str, list[str]] = {}
        for n in self.nodes:
            users[n["id"]] = []
            inputs[n["id"]] = []
        for e in self.edges:
            src, dst = e["src"], e["dst"]
            users[src].append(dst)
            inputs[dst].append(src)
        for k, v in users.items():
            if len(v) > 1 and len(set(v)) < len(v):  # a node used twice by one user (x * x)
                users[k] = list(dict.fromkeys(v))
        return users, inputs

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


class HasSnapshot(ABC):
    """What already holds its snapshot (a capture Stage; a Run, its newest stage's): analyses read that one."""

    @property
    @abstractmethod
    def snapshot(self) -> Snapshot: ...


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
    with _no_cyclic_gc():
        return _build(gm, stage, record)


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while acyclic JSON-like data is built (restored as it was)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _build(gm: torch.fx.GraphModule, stage: str | None, record: CaptureRecord | None) -> Snapshot:
    modules = dict(gm.named_modules(remove_duplicate=False))
    roles = record.qdq_roles if record and record.qdq_roles else roles_from_provenance(gm)
    nodes, edges = nodes_and_edges(gm, modules, roles)
    by_id = {n["id"]: n for n in nodes}
    present = {n["role"] for n in nodes}  # a float graph skips the observer and q/dq walks (both empty)
    specs = SpecTable()
    failed: list[tuple[str, BaseException]] = []

    def part(name: str, fn, *args) -> list:
        # one table that cannot be read (an unknown observer, a new op) must not take the snapshot down
        try:
            return fn(*args)
        except Exception as e:
            failed.append((name, e))
            return []

    anns = part(
        "annotations", annotation_dicts, gm, specs, record.blame if record else {}, record.skipped_by if record else {}
    )
    obs = (
        part(
            "observers",
            observers,
            gm,
            modules,
            by_id,
            specs,
            record.serves if record else None,
            record.qparams if record else None,
        )
        if "observer" in present
        else []
    )
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
        "qdq": part("qdq", qdq, gm, by_id, roles) if {"quantize", "dequantize"} & present else [],
        # a table the builder could not read: the findings rules (analyses.findings) add theirs after these
        "findings": [part_failed(f"snapshot.{name}", e) for name, e in failed],
    }
    return Snapshot(data)


def part_failed(name: str, e: BaseException) -> dict:
    """The Finding that stands in for a part that raised: one analysis never takes a capture down."""
    return {
        "kind": "analysis-failed",
        "message": f"the {name} analysis failed ({type(e).__name__}: {first_line(e, 160)}): its results are "
        "missing from this view, everything else is complete — please report this graph to pt2e-lens.",
        "nodes": [],
    }
