"""Drop-in stand-ins for the course's hand-made helpers (`common.viz`, `common.graph_utils`, `common.pt2e`).

A chapter written against those helpers runs on pt2e-lens by changing its imports to one
`from pt2e_lens.examples import ...`: `draw` / `draw_stages` become interactive views, `table` and
`diff_ops` pt2e-lens Tables, and the torchao names the chapters use come from the same place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from .. import i18n
from .._targets import short_name
from ..analyses.counts import diff_ops as _diff_ops
from ..analyses.source import snapshot
from ..analyses.table import Table
from ..capture import export_program
from ..display import View, compare, show
from ..errors import Pt2eLensError


def short(target: Any) -> str:
    """`aten.conv2d.default` → `conv2d` (the course's `short`)."""
    return short_name(target)


def export_module(model: torch.nn.Module, example_inputs: tuple, dynamic_batch: bool = True) -> torch.fx.GraphModule:
    """`torch.export.export(model, example_inputs).module()`, the graph PT2E annotates — with a symbolic
    batch dimension, so calibration batches of another size run (the course's `calibration_batches(n, 16)`
    after `example_inputs(8)`). `dynamic_batch=False` exports the example's batch size only."""
    return export_program(model, tuple(example_inputs), dynamic_batch).module()


def observer_nodes(x: Any) -> list[str]:
    """Names of the observer nodes in a prepared graph."""
    return [n["id"] for n in snapshot(x).nodes if n["role"] == "observer"]


def qdq_nodes(x: Any) -> list[str]:
    """Names of the quantize / dequantize nodes in a converted graph."""
    return [n["id"] for n in snapshot(x).nodes if n["role"] in ("quantize", "dequantize")]


_TABLEFMTS = {None: None, "html": None, "markdown": "markdown", "github": "markdown", "pipe": "markdown"}
_TABLEFMTS.update({"plain": "text", "simple": "text", "text": "text"})


def diff_ops(a: Any, b: Any, label_a: str = "a", label_b: str = "b", tablefmt: str | None = None) -> Any:
    """The course's `diff_ops(gm_pre, gm_post, "gm_pre", "gm_post", tablefmt="html")`: the op diff table
    (`pl.diff_ops`). "html" (or None) gives the Table itself, which renders as HTML in a notebook;
    "markdown"/"github"/"pipe" and "plain"/"simple" give its text."""
    if tablefmt not in _TABLEFMTS:
        raise Pt2eLensError(i18n.t("error.tablefmt", choices=", ".join(map(repr, _TABLEFMTS)), got=repr(tablefmt)))
    t = _diff_ops(a, b, label_a, label_b)
    form = _TABLEFMTS[tablefmt]
    return t if form is None else t.to_markdown() if form == "markdown" else t.to_text()


def table(rows: Sequence[Sequence[Any]] | Table, headers: Sequence[str] | None = None, **_: Any) -> Table:
    """The course's `table(rows, headers)`; a Table passes through (tablefmt is not needed)."""
    if isinstance(rows, Table):
        return rows
    rows = [list(r) for r in rows]
    headers = list(headers) if headers is not None else [f"col{i}" for i in range(len(rows[0]) if rows else 0)]
    return Table("table", headers, rows)


def draw(x: Any, focus: Any = None, hops: int = 1, notes: dict | None = None, title: str | None = None) -> View:
    """The course's `draw`: `pl.show` (focus: op names, node names, roles, `pl.module("stem")`)."""
    return show(x, focus=focus, hops=hops, notes=notes, title=title)


def draw_stages(
    items: Sequence[Any],
    focus: Any = None,
    hops: int = 1,
    notes: Sequence[dict] | None = None,
    title: str | None = None,
) -> View:
    """The course's `draw_stages`: `pl.compare` (one focus for all panes, or one per pane)."""
    return compare(items, focus=focus, hops=hops, notes=notes, title=title)
