"""`pl.why_not(x, node)`: why a node is (not) quantized — its lines of the snapshot's `Node.why`."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..analyses.source import snapshot
from ..analyses.table import Table
from ..analyses.why_lines import why_lines
from ..errors import Pt2eLensError


def why_not(x: Any, node: str) -> Table:
    """A row per line: which quantizer (and which of its annotators) annotated `node`, looked at it and left
    it, or that nothing matched its op; for an observer, which annotation requested it; on a lowered stage,
    last, what the backend made of it (outcome, kernel, reason).

    `x`: a Run (its newest stage), a Stage, or a GraphModule / ExportedProgram (then without the record of
    which annotator looked: pt2e-lens did not watch it being annotated)."""
    snap = snapshot(x)
    if node not in snap.node:
        example = next((n["id"] for n in snap.nodes if n["op"] == "call_function"), "conv2d")
        raise Pt2eLensError(i18n.t("error.why_not_node", node=repr(node), example=example))
    lines = snap.node[node].get("why")
    if lines is None:  # a float stage carries no lines: say what the rules say for it anyway
        lines = why_lines(snap).get(node, [])
    ran = snap.data.get("backend", {}).get("nodes", {}).get(node)  # a lowered stage: what the backend did with it
    if ran is not None:
        lines = [*lines, _backend_line(snap.data["backend"]["name"], ran)]
    return Table(
        "why_not",
        ["node", "why"],
        [(node, line) for line in lines],
        title=i18n.t("table.why_not", node=node, stage=snap.stage or i18n.t("table.graph")),
    )


def _backend_line(backend: str, ran: dict) -> str:
    kernel = f" ({ran['kernel']})" if ran.get("kernel") else ""
    reason = f" — {ran['reason']}" if ran.get("reason") else ""
    return i18n.t("why.backend", backend=backend, outcome=ran["outcome"], kernel=kernel, reason=reason)
