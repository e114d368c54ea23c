"""One recorded step of the PT2E pipeline: a private graph copy and its snapshot."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import torch

from ..snapshot import CaptureRecord, Snapshot, build

STAGE_ORDER = ("exported", "decomposed", "annotated", "prepared", "calibrated", "converted")


@dataclass(eq=False)
class Stage:
    name: str
    graph_module: torch.fx.GraphModule  # private to pt2e-lens: never the user's object
    record: CaptureRecord = field(default_factory=CaptureRecord)
    exported_program: torch.export.ExportedProgram | None = None
    info: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def snapshot(self) -> Snapshot:
        return build(self.graph_module, stage=self.name, record=self.record)

    def _repr_mimebundle_(self, include=None, exclude=None):
        from ..display import mimebundle

        return mimebundle(self)

    def __repr__(self) -> str:
        return f"<Stage {self.name!r}: {len(self.graph_module.graph.nodes)} nodes>"
