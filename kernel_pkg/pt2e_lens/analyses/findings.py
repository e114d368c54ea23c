"""The findings rules: warnings that explain a surprising result, each naming the nodes involved (`pl.findings`).

They are computed from the snapshot alone (plus pl.check's problems recorded at prepare time), so every
front end shows the same list in the snapshot's `findings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .. import i18n
from .._targets import BATCH_NORMS as _BATCH_NORMS
from ..schema import FINDING_KINDS
from ..snapshot import Snapshot, part_failed
from ..snapshot.keys import Key, spec_by_key, tensor_of
from .islands import islands, needs_own_qparams
from .sharing_groups import blocked, groups, root_spec
from .text import key_text


def finding(kind: str, nodes: list[str], message: str) -> dict:
    """The contract's Finding: {kind, message, nodes} (node ids without repeats); `kind` is one of the schema's
    FindingKind (a new rule adds its kind there first, so the front ends can rely on the set)."""
    if kind not in FINDING_KINDS:
        raise ValueError(f"finding kind {kind!r} is not in view.schema.json $defs.FindingKind")
    return {"kind": kind, "message": message, "nodes": list(dict.fromkeys(nodes))}


QUANTIZED_STAGES = ("annotated", "prepared", "trained", "calibrated", "converted")
_FLOAT_ROLES = ("compute",)


def _annotated(snap: Snapshot) -> set[str]:
    return {a["node"] for a in snap.annotations if a["output"] is not None or any(i["spec"] for i in a["inputs"])}


def nothing_quantized(snap: Snapshot) -> list[dict]:
    if snap.stage not in QUANTIZED_STAGES:
        return []
    if snap.stage == "annotated":
        empty, what = not _annotated(snap), i18n.t("finding.what.no_spec")
    elif snap.stage == "converted":
        empty, what = not snap.qdq, i18n.t("finding.what.no_qdq")
    else:
        empty, what = not snap.observers, i18n.t("finding.what.no_observer")
    if not empty:
        return []
    return [
        finding(
            "nothing-quantized",
            [],
            i18n.t("finding.nothing_quantized", what=what),
        )
    ]


def _quantizing(snap: Snapshot) -> bool:
    """A stage after annotation, or a bare graph that carries annotations, observers or q/dq."""
    if snap.stage is None:
        return bool(snap.annotations or snap.observers or snap.qdq)
    return snap.stage in QUANTIZED_STAGES


def decomposed(snap: Snapshot) -> list[dict]:
    if not _quantizing(snap):
        return []
    annotated = _annotated(snap)
    convs = [
        n["id"]
        for n in snap.nodes
        if n["op"] == "call_function" and n["target"] == "convolution" and n["id"] not in annotated
    ]
    if not convs:
        return []
    bns = [n["id"] for n in snap.nodes if n["op"] == "call_function" and n["target"] in _BATCH_NORMS]
    folded = i18n.t("finding.decomposed_bn", n=len(bns)) if bns else ""
    return [
        finding(
            "decomposed",
            convs + bns,
            i18n.t("finding.decomposed", n=len(convs), folded=folded),
        )
    ]


def _name(snap: Snapshot, node: str) -> str:
    target = snap.node[node]["target"]
    return node if node == target else f"{node} ({target})"


def _names(snap: Snapshot, nodes: list[str], most: int = 6) -> str:
    shown = " → ".join(_name(snap, n) for n in nodes[:most])
    return shown + (i18n.t("finding.more", n=len(nodes) - most) if len(nodes) > most else "")


def fp32_islands(snap: Snapshot) -> list[dict]:
    """Runs of unannotated ops whose inputs come from quantized tensors and whose outputs are quantized again."""
    out = []
    for island in islands(snap):
        trip = i18n.t("finding.trip.dq" if island.converted else "finding.trip.observer")
        own = needs_own_qparams(snap, island)
        advice = (
            i18n.t("finding.island.own", ops=", ".join(own))
            if own
            else i18n.t("finding.island.shared", n=len(island.ops))
        )
        passes = i18n.t("finding.island.passes", ops=", ".join(island.passes)) if island.passes else ""
        message = i18n.t(
            "finding.fp32_island",
            names=_names(snap, island.ops),
            n=len(island.ops),
            trip=trip,
            passes=passes,
            advice=advice,
        )
        out.append(finding("fp32-island", [*island.ops, *island.passes, *island.entries, *island.exits], message))
    return out


def _qparams(q: dict) -> tuple:
    return q["dtype"], q["quant_min"], q["quant_max"], tuple(q["scale"] or ()), tuple(q["zero_point"] or ())


def _static_vs_dynamic(key: Key, other: Key, specs: dict[Key, dict]) -> bool:
    """A dynamic quantize (qparams per batch) next to a static one is two kernels' inputs, not a round trip."""
    a, b = root_spec(key, specs), root_spec(other, specs)
    return a is not None and b is not None and bool(a["is_dynamic"]) != bool(b["is_dynamic"])


def mismatched_observers(snap: Snapshot) -> list[dict]:
    """One tensor quantized twice with different specs: two observers, or after convert two quantize params."""
    out = []
    specs = spec_by_key(snap)
    by_tensor: dict[str, list[tuple[Key, Key, str]]] = {}
    for key, other, reason in blocked(snap):
        if not _static_vs_dynamic(key, other, specs):
            by_tensor.setdefault(tensor_of(key), []).append((key, other, reason))
    watching: dict[str, list[str]] = {}  # tensor → observer instances serving a key on it (shared ones too)
    for oid, keys in groups(snap).items():
        for tensor in dict.fromkeys(tensor_of(k) for k in keys):
            watching.setdefault(tensor, []).append(oid)
    for tensor, pairs in by_tensor.items():
        obs = watching.get(tensor, [])
        nodes = [tensor] + [k[2] for p in pairs for k in p[:2] if k[0] == "edge"]
        why = "; ".join(f"{key_text(k)} vs {key_text(o)}: {r}" for k, o, r in pairs)
        out.append(
            finding(
                "mismatched-observers",
                nodes,
                i18n.t("finding.mismatched", tensor=tensor, n=len(obs), obs=", ".join(obs), why=why),
            )
        )
    quantizes: dict[str, dict[tuple, list[str]]] = {}
    for q in snap.qdq:
        # a dynamic quantize (qparams computed per batch, no literal scale) is not a requantize round trip
        if q["kind"] == "quantize" and q["tensor"] and q["scale"]:
            quantizes.setdefault(q["tensor"], {}).setdefault(_qparams(q), []).append(q["node"])
    for tensor, variants in quantizes.items():
        if len(variants) > 1 and tensor not in by_tensor:
            nodes = [n for names in variants.values() for n in names]
            ranges = ", ".join(_variant_text(p) for p in variants)
            out.append(
                finding(
                    "mismatched-observers",
                    [tensor, *nodes],
                    i18n.t("finding.quantized_ways", tensor=tensor, n=len(variants), ranges=ranges),
                )
            )
    return out


def _variant_text(p: tuple) -> str:
    """`int8 [-128, 127] scale 0.0123`; a dynamic quantize has no fixed scale (it is computed per batch)."""
    scale = f"scale {p[3][0]:.4g}" if p[3] and isinstance(p[3][0], (int, float)) else i18n.t("finding.dynamic_scale")
    return f"{p[0] or '?'} [{p[1]}, {p[2]}] {scale}"


_INSERTED = ("observer", "quantize", "dequantize")
# ops whose argument 1 is a weight that can be quantized per output channel
WEIGHTED = frozenset(
    {"conv1d", "conv2d", "conv3d", "convolution", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "linear"}
)


def _weight_granularity(snap: Snapshot) -> dict[str, str]:
    """Consumer (or dequantize) node → `per_channel` / `per_tensor` for every quantized weight: a parameter
    at the weight position of a conv/linear (a scale, a positional embedding or `x * 0.5` is no weight)."""
    arg: dict[tuple[str, str], int] = {}
    for e in snap.edges:
        if e["arg"] == 1 and snap.node[e["dst"]]["target"] in WEIGHTED:
            src = e["src"]
            arg[(src, e["dst"])] = 1
            while snap.node[src]["role"] in _INSERTED and snap.inputs[src]:  # param → observer / q → dq → conv
                src = snap.inputs[src][0]
                arg[(src, e["dst"])] = 1

    def weight_of(src: str, dst: str) -> bool:
        return arg.get((src, dst)) == 1

    def is_param(name: str) -> bool:
        return snap.node.get(name, {}).get("role") == "param"

    specs = spec_by_key(snap)
    out = {}
    for k in specs:
        if k[0] == "edge" and is_param(k[1]) and k[2] in snap.node and weight_of(k[1], k[2]):
            spec = root_spec(k, specs)
            if spec and spec["qscheme"]:
                out[k[2]] = "per_channel" if "channel" in spec["qscheme"] else "per_tensor"
    for q in snap.qdq:  # after convert a weight is a lone dq on a frozen parameter
        if q["kind"] != "dequantize" or not q["tensor"] or q["granularity"] == "affine":
            continue
        if is_param(q["tensor"]) or snap.node.get(q["tensor"]) is None:  # folded away: read the dq's users
            if any(weight_of(q["node"], u) for u in snap.users[q["node"]]):
                out.setdefault(q["node"], q["granularity"])
    return out


def per_tensor_weights(snap: Snapshot) -> list[dict]:
    kinds = _weight_granularity(snap)
    tensor = [n for n, g in kinds.items() if g == "per_tensor"]
    channel = [n for n, g in kinds.items() if g == "per_channel"]
    if not channel or not tensor:
        return []
    return [
        finding(
            "per-tensor-weight",
            tensor,
            i18n.t("finding.per_tensor", n=len(tensor), at=", ".join(tensor), m=len(channel)),
        )
    ]


analysis_failed = part_failed  # one wording for a part of the builder and a findings rule


def run_rules(snap: Snapshot, rules: Iterable[Callable[[Snapshot], list[dict]]]) -> list[dict]:
    """Every rule's findings; a rule that raises is one analysis-failed finding and the others still run."""
    out: list[dict] = []
    for rule in rules:
        try:
            out += rule(snap)
        except Exception as e:
            out.append(analysis_failed(f"findings.{rule.__name__}", e))
    return out


def explain(snap: Snapshot, problems: list[dict] | None = None) -> list[dict]:
    """Every finding for this snapshot; `problems` are pl.check's, recorded when the run prepared."""
    rules = (nothing_quantized, decomposed, fp32_islands, mismatched_observers, per_tensor_weights)
    return list(problems or []) + run_rules(snap, rules)


def with_findings(snap: Snapshot, problems: list[dict] | None = None) -> Snapshot:
    """Fill the snapshot's `findings` (the builder leaves them empty: the rules read the finished snapshot)."""
    failed_parts = [f for f in snap.data["findings"] if f["kind"] == "analysis-failed"]  # the builder's
    found = failed_parts + [f for f in explain(snap, problems) if f not in failed_parts]
    snap.data["findings"] = with_titles(found)
    return snap


def group_title(kind: str) -> str:
    """The rule's own short name (`fp32 island`): a grouped list shows it with the count (`251 × fp32 island`)."""
    text = i18n.t(f"finding.title.{kind}")
    return text if text != f"finding.title.{kind}" else i18n.named("finding.kind.", kind)


def with_titles(found: list[dict]) -> list[dict]:
    """Each finding with its rule's `title` (copies: recorded problems are shared between stages)."""
    return [{**f, "title": group_title(f["kind"])} for f in found]
