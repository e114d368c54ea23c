"""When a quantizer fails on a decomposed graph, name the op the decomposition changed under it.

XNNPACKQuantizer on a Core-ATen resnet18 raises "mean is not an aten adaptive_avg_pool2d operator": its
adaptive_avg_pool2d annotator met `mean`, which run_decompositions made of adaptive_avg_pool2d. That, not the
export mode, is what to fix (quantize before decomposing).
"""

from __future__ import annotations

import re

from .. import i18n
from ..snapshot import Snapshot


def changed_ops(decomposed: Snapshot, exported: Snapshot) -> dict[str, tuple[str, str]]:
    """Decomposed node → (root op it came from, its op now), for nodes whose op the decomposition changed."""
    out = {}
    for n in decomposed.nodes:
        if n["op"] != "call_function":
            continue
        roots = [exported.node[p]["target"] for p in n["provenance"] if p in exported.node]
        if roots and n["target"] not in roots:
            out[n["id"]] = (roots[0], n["target"])
    return out


def decomposition_cause(error_text: str, decomposed: Snapshot, exported: Snapshot) -> str | None:
    """The sentence that names the changed op the error mentions, or None if it mentions none."""
    changed = changed_ops(decomposed, exported)
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", error_text))
    for node, (was, now) in changed.items():
        if node in words or f"aten.{now}" in error_text:
            return i18n.t("error.decomposed_op", node=node if node == now else f"{node} ({now})", was=was)
    return None
