"""The one result type every backend returns: an outcome for each node of the converted graph."""

from __future__ import annotations

import dataclasses
from typing import Any

# what became of a converted node (docs/backends.md): Inductor gives the first three, XNNPACK the last three
OUTCOMES = ("int8", "fp32", "folded", "delegated-int8", "delegated-fp32", "portable")


@dataclasses.dataclass(frozen=True)
class NodeOutcome:
    outcome: str  # one of OUTCOMES
    kernel: str | None = None  # the backend's kernel or fused op, e.g. "qconv2d_pointwise + relu"
    reason: str | None = None  # why an annotated op runs fp32 (freezing off, no fusion pattern, rejected dtype, ...)
    partition: int | None = None  # XNNPACK: the delegate's partition id

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown backend outcome {self.outcome!r}; one of {', '.join(OUTCOMES)}")


@dataclasses.dataclass
class BackendRecord:
    backend: str  # "inductor" | "xnnpack"
    nodes: dict[str, NodeOutcome]  # converted-graph node name -> what the backend did with it
    # the backend's own records, kept as they were read: Inductor's counters, ExecuTorch's delegation table
    records: dict[str, Any] = dataclasses.field(default_factory=dict)
    options: dict[str, Any] = dataclasses.field(default_factory=dict)  # e.g. {"freezing": True}
    # something that computes what the backend computes (a compiled module, an ExecuTorch method), for accuracy
    runner: Any = None

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.nodes.values():
            out[o.outcome] = out.get(o.outcome, 0) + 1
        return out
