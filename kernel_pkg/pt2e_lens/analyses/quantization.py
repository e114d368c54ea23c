"""Annotation, observer, q/dq and findings tables, the fp32↔int8 boundaries and the course's sequence line."""

from typing import Any

from .. import i18n
from .findings_table import FindingsTable
from .source import snapshot
from .table import Table
from .text import at_text, range_text, spec_text


def annotations(x: Any) -> Table:
    """A row per annotated node: its input edges and output with their specs, and who annotated it."""
    snap = snapshot(x)
    rows = []
    for a in snap.annotations:
        inputs = "; ".join(f"{i['src']}: {spec_text(snap.spec.get(i['spec']))}" for i in a["inputs"])
        rows.append(
            (
                a["node"],
                snap.node[a["node"]]["target"],
                inputs or "—",
                spec_text(snap.spec.get(a["output"])),
                a["annotated"],
                a["allow_implicit_sharing"],
                a["quantizer"],
                ", ".join(a.get("skipped_by", [])),
            )
        )
    cols = ["node", "op", "inputs", "output", "_annotated", "allow_implicit_sharing", "quantizer", "skipped_by"]
    return Table("annotations", cols, rows, title=i18n.t("table.annotations"))


# the stages of a Run that hold observers, newest first: pl.observers(run) and %pt2e observers run read the
# same one (the converted stage, a Run's newest, has none left)
OBSERVER_STAGES = ("calibrated", "trained", "prepared")  # the first a Run has: its observers saw the most


def _with_observers(x: Any) -> Any:
    stages = getattr(x, "stages", None)  # a Run (capture is a layer above: known by its shape)
    if isinstance(stages, list) and hasattr(x, "__getitem__"):
        for name in OBSERVER_STAGES:
            if name in stages:
                return x[name]
    return x


def observers(x: Any) -> Table:
    """A row per observer instance: what it watches, every edge/node it serves, its group and stats.
    A Run reads its calibrated stage (else trained, else prepared): the stage whose observers saw the most."""
    snap = snapshot(_with_observers(x))
    rows = []
    for o in snap.observers:
        requested = []
        for s in o["serves"]:
            who = s["at"]["edge"][1] if "edge" in s["at"] else s["at"]["node"]
            if who not in requested:
                requested.append(who)
        rows.append(
            (
                o["id"],
                ", ".join(o["names"]),
                o["class"],
                o["dtype"],
                o["qscheme"],
                range_text(o["quant_min"], o["quant_max"]),
                o["observes"],
                "; ".join(f"{at_text(s['at'])} ({s['via']})" for s in o["serves"]),
                ", ".join(requested),
                o["group"],
                o["implicit"],
                o["min"],
                o["max"],
                o["scale"],
                o["zero_point"],
            )
        )
    cols = [
        "id",
        "names",
        "class",
        "dtype",
        "qscheme",
        "range",
        "observes",
        "serves",
        "requested_by",
        "group",
        "implicit",
        "min",
        "max",
        "scale",
        "zero_point",
    ]
    return Table("observers", cols, rows, title=i18n.t("table.observers"))


def qdq(x: Any) -> Table:
    """A row per quantize/dequantize node with its qparams and the tensor it belongs to."""
    snap = snapshot(x)
    rows = [
        (
            q["node"],
            q["kind"],
            q["op"],
            q["granularity"],
            q["scale"],
            q["zero_point"],
            q["axis"],
            q["dtype"],
            range_text(q["quant_min"], q["quant_max"]),
            q["tensor"],
            q["from_observer"],
        )
        for q in snap.qdq
    ]
    cols = [
        "node",
        "kind",
        "op",
        "granularity",
        "scale",
        "zero_point",
        "axis",
        "dtype",
        "range",
        "tensor",
        "from_observer",
    ]
    return Table("qdq", cols, rows, title=i18n.t("table.qdq"))


def boundaries(x: Any) -> Table:
    """Where values cross between fp32 and int8: each quantize (fp32→int8) and dequantize (int8→fp32)."""
    snap = snapshot(x)
    rows = []
    for q in snap.qdq:
        direction = "fp32→int8" if q["kind"] == "quantize" else "int8→fp32"
        rows.append((direction, q["node"], q["tensor"], ", ".join(snap.users[q["node"]])))
    return Table("boundaries", ["direction", "node", "tensor", "consumers"], rows, title=i18n.t("table.boundaries"))


def sequence(x: Any) -> str:
    """The course's one-line form of the call_function nodes: `dq q dq conv2d q dq relu …`."""
    short = {"quantize": "q", "dequantize": "dq"}
    # the op's own name (`atan2`, `linear_int8`), not the node id with its counter stripped; `relu_` → `relu`
    return " ".join(
        short.get(n["role"]) or n["target"].rstrip("_") for n in snapshot(x).nodes if n["op"] == "call_function"
    )


def findings(x: Any) -> Table:
    """The snapshot's findings as a table: kind, nodes, message, title (printed grouped by rule)."""
    snap = snapshot(x)
    rows = [(f["kind"], f["nodes"], f["message"], f.get("title") or f["kind"]) for f in snap.findings]
    return FindingsTable(
        "findings",
        ["kind", "nodes", "message", "title"],
        rows,
        title=i18n.t("table.findings", stage=snap.stage or i18n.t("table.graph")),
    )
