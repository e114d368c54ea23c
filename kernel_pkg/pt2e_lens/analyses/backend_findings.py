"""Findings of the "lowered" stage: lowerings that silently do nothing int8 (docs/backends.md).

Read from the snapshot's `backend` field alone, so every front end shows the same list.
"""

from __future__ import annotations

from .. import i18n
from ..snapshot import Snapshot
from .findings import finding, run_rules

INT8 = ("int8", "delegated-int8")
# a HOP torch.export leaves for a forward under no_grad: prepare_pt2e does not look inside it (executorch#22069)
_GRAD_REGION = "wrap_with_set_grad_enabled"


def _compute_annotated(snap: Snapshot) -> list[str]:
    nodes = snap.data["backend"]["nodes"]
    return [n for n, e in nodes.items() if e["annotated"] and snap.node[n]["role"] == "compute"]


def nothing_annotated(snap: Snapshot) -> list[dict]:
    if snap.annotations or snap.qdq or any(n["target"] == _GRAD_REGION for n in snap.nodes):
        return []
    return [finding("backend-nothing-annotated", [], i18n.t("finding.backend_nothing_annotated"))]


def grad_region(snap: Snapshot) -> list[dict]:
    regions = [n["id"] for n in snap.nodes if n["target"] == _GRAD_REGION]
    if not regions:
        return []
    return [finding("backend-no-grad", regions, i18n.t("finding.backend_no_grad", n=len(regions)))]


def freezing_off(snap: Snapshot) -> list[dict]:
    b = snap.data["backend"]
    if b["name"] != "inductor" or b["options"].get("freezing", True) or not snap.qdq:
        return []
    return [finding("backend-freezing-off", [], i18n.t("finding.backend_freezing_off"))]


def nothing_fused(snap: Snapshot) -> list[dict]:
    b = snap.data["backend"]
    annotated = _compute_annotated(snap)
    if not annotated or any(b["nodes"][n]["outcome"] in INT8 for n in annotated):
        return []
    if b["name"] == "inductor" and not b["options"].get("freezing", True):
        return []  # freezing_off says why, and what to set
    return [
        finding(
            "backend-nothing-int8",
            annotated,
            i18n.t("finding.backend_nothing_int8", n=len(annotated), backend=b["name"]),
        )
    ]


def annotated_fp32(snap: Snapshot) -> list[dict]:
    """Some annotated ops run int8 and some do not: name the others, with the backend's reason."""
    b = snap.data["backend"]
    annotated = _compute_annotated(snap)
    fp32 = [n for n in annotated if b["nodes"][n]["outcome"] not in INT8 and b["nodes"][n]["outcome"] != "folded"]
    if not fp32 or len(fp32) == len(annotated):
        return []
    reasons = "; ".join(f"{n}: {b['nodes'][n]['reason'] or '?'}" for n in fp32[:4])
    more = i18n.t("finding.backend_more", n=len(fp32) - 4) if len(fp32) > 4 else ""
    return [
        finding(
            "backend-annotated-fp32",
            fp32,
            i18n.t("finding.backend_annotated_fp32", n=len(fp32), backend=b["name"], reasons=reasons, more=more),
        )
    ]


def backend_findings(snap: Snapshot) -> list[dict]:
    """Every backend finding of a lowered snapshot (none for a snapshot without a `backend` field)."""
    if "backend" not in snap.data:
        return []
    return run_rules(snap, (nothing_annotated, grad_region, freezing_off, nothing_fused, annotated_fp32))
