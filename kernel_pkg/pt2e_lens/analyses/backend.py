"""`pl.backend(run)`: what the backend made of each converted node, read from the lowered stage's snapshot."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..errors import Pt2eLensError
from .source import snapshot
from .table import Table

COLUMNS = ["node", "op", "outcome", "kernel", "reason"]


class BackendTable(Table):
    """One row per converted node the backend ran, folded or left out; `counts`: outcome → nodes; `ops`:
    the backend's own op counts where it gives them (XNNPACK: get_delegation_info), else None."""

    def __init__(self, name: str, rows: list[tuple], counts: dict[str, int], ops: dict[str, int] | None = None):
        summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1])) or "—"
        if ops is None:
            title = i18n.t("table.backend", backend=name, counts=summary)
        else:  # the headline is the backend's count of its ops; the rows count converted nodes
            title = i18n.t("table.backend_ops", backend=name, counts=summary, **ops)
        super().__init__("backend", COLUMNS, rows, title=title)
        self.backend, self.counts, self.ops = name, dict(counts), (dict(ops) if ops is not None else None)


def backend(x: Any) -> BackendTable:
    """`pl.backend(run)` after `run.lower("inductor")`: node, op, outcome, kernel, and why an annotated op runs fp32."""
    snap = snapshot(x)
    b = snap.data.get("backend")
    if b is None:
        raise Pt2eLensError(i18n.t("error.backend_not_lowered", stage=repr(snap.stage)))
    rows = []
    for n in snap.nodes:
        e = b["nodes"].get(n["id"])
        if e is not None:
            rows.append((n["id"], n["target"], e["outcome"], e["kernel"], e["reason"]))
    return BackendTable(b["name"], rows, b["counts"], b.get("ops"))
