"""Drop-in stand-ins for the course's hand-made helpers (`common.viz`, `common.graph_utils`, `common.pt2e`).

A chapter written against those helpers runs on pt2e-lens by changing its imports:
`draw` / `draw_stages` become interactive views, `table` a pt2e-lens Table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import torch

from .._targets import short_name
from ..analyses.counts import diff_ops  # noqa: F401  (the course imports it from graph_utils)
from ..analyses.source import snapshot
from ..analyses.table import Table
from ..display import View, compare, show


def short(target: Any) -> str:
    """`aten.conv2d.default` → `conv2d` (the course's `short`)."""
    return short_name(target)


def export_module(model: torch.nn.Module, example_inputs: tuple) -> torch.fx.GraphModule:
    """`torch.export.export(model, example_inputs).module()`, the graph PT2E annotates."""
    return torch.export.export(model, example_inputs).module()


def observer_nodes(x: Any) -> list[str]:
    """Names of the observer nodes in a prepared graph."""
    return [n["id"] for n in snapshot(x).nodes if n["role"] == "observer"]


def qdq_nodes(x: Any) -> list[str]:
    """Names of the quantize / dequantize nodes in a converted graph."""
    return [n["id"] for n in snapshot(x).nodes if n["role"] in ("quantize", "dequantize")]


def table(rows: Sequence[Sequence[Any]] | Table, headers: Sequence[str] | None = None, **_: Any) -> Table:
    """The course's `table(rows, headers)`; a Table passes through (tablefmt is not needed)."""
    if isinstance(rows, Table):
        return rows
    rows = [list(r) for r in rows]
    headers = list(headers) if headers is not None else [f"col{i}" for i in range(len(rows[0]) if rows else 0)]
    return Table("table", headers, rows)


def draw(
    x: Any, focus: str | Iterable[str] | None = None, hops: int = 1, notes: dict | None = None, title: str | None = None
) -> View:
    return show(x, focus=focus, hops=hops, notes=notes, title=title)


def draw_stages(
    items: Sequence[Any],
    focus: str | Iterable[str] | None = None,
    hops: int = 1,
    notes: Sequence[dict] | None = None,
    title: str | None = None,
) -> View:
    return compare(items, focus=focus, hops=hops, notes=notes, title=title)
