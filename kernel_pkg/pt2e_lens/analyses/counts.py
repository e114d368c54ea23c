"""Node and op counts, and the op diff table of course chapter M00-3."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .. import i18n
from .source import snapshot
from .table import Table


def node_count(x: Any) -> int:
    """All nodes, placeholders, get_attr and output included (as the course counts: 47 → 51)."""
    return len(snapshot(x).nodes)


def op_counts(x: Any) -> Counter:
    """call_function nodes by short op name: conv2d, _native_batch_norm_legit_no_training, getitem…

    A q/dq op keeps an overload other than `.default` in its name, so static and dynamic q/dq count apart:
    `quantize_per_tensor` (literal qparams) vs `quantize_per_tensor.tensor` (qparams computed per batch).
    """
    return Counter(op_label(n) for n in snapshot(x).nodes if n["op"] == "call_function")


def op_label(node: dict) -> str:
    """The node's short op name; for q/dq plus its overload unless that is `default` (from `target_full`)."""
    short, parts = node["target"], node["target_full"].split(".")
    if node["role"] in ("quantize", "dequantize") and len(parts) >= 3 and parts[-2] == short and parts[-1] != "default":
        return f"{short}.{parts[-1]}"
    return short


def diff_ops(a: Any, b: Any, label_a: str = "a", label_b: str = "b") -> Table:
    """Rows (op, count_a, count_b, delta): changed ops first, then unchanged, each alphabetical."""
    ca, cb = op_counts(a), op_counts(b)
    ops = sorted(set(ca) | set(cb))
    rows = [(op, ca[op], cb[op], cb[op] - ca[op]) for op in ops]
    rows = [r for r in rows if r[3]] + [r for r in rows if not r[3]]
    return Table(
        "op_diff", ["op", label_a, label_b, "delta"], rows, title=i18n.t("table.op_diff", a=label_a, b=label_b)
    )
