"""The findings rules: warnings that explain a surprising result, each naming the nodes involved (`pl.findings`).

They are computed from the snapshot alone (plus pl.check's problems recorded at prepare time), so every
front end shows the same list in the snapshot's `findings`.
"""

from __future__ import annotations

from .._targets import BATCH_NORMS as _BATCH_NORMS
from ..snapshot import Snapshot, part_failed
from ..snapshot.keys import Key, spec_by_key, tensor_of
from .sharing_groups import blocked, root_spec
from .text import key_text


def finding(kind: str, nodes: list[str], message: str) -> dict:
    """The contract's Finding: {kind, message, nodes} (node ids without repeats)."""
    return {"kind": kind, "message": message, "nodes": list(dict.fromkeys(nodes))}


QUANTIZED_STAGES = ("annotated", "prepared", "calibrated", "converted")
_FLOAT_ROLES = ("compute",)


def _annotated(snap: Snapshot) -> set[str]:
    return {a["node"] for a in snap.annotations if a["output"] is not None or any(i["spec"] for i in a["inputs"])}


def nothing_quantized(snap: Snapshot) -> list[dict]:
    if snap.stage not in QUANTIZED_STAGES:
        return []
    if snap.stage == "annotated":
        empty, what = not _annotated(snap), "no node has a quantization spec"
    elif snap.stage == "converted":
        empty, what = not snap.qdq, "there is no quantize/dequantize node"
    else:
        empty, what = not snap.observers, "prepare inserted no observer"
    if not empty:
        return []
    return [
        finding(
            "nothing-quantized",
            [],
            f"nothing is quantized: {what}. The quantizer matched no node — check that its patterns name this "
            f"graph's ops (a decomposed graph has convolution, not conv2d), that module-name filters match "
            f"nn_module_stack paths (executorch#15870), and that it was configured (e.g. set_global).",
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
    folded = f"; {len(bns)} batch norm(s) stay unfolded because prepare_pt2e only folds them into conv2d" if bns else ""
    return [
        finding(
            "decomposed",
            convs + bns,
            f"{len(convs)} aten.convolution node(s) are not quantized: the graph was decomposed to Core ATen "
            f"(conv2d → convolution) before quantizing, and quantizers that match aten.conv2d find nothing{folded} "
            f"— quantize before run_decompositions(), or decompose with an empty table.",
        )
    ]


def fp32_islands(snap: Snapshot) -> list[dict]:
    """Unannotated ops whose input comes from a quantized tensor and whose output is quantized again."""
    if not (snap.observers or snap.qdq):  # a float graph has no quantized neighbours to be between
        return []
    annotated = _annotated(snap)
    into = {"observer": "observer", "dequantize": "quantize"}
    out = []
    for n in snap.nodes:
        if n["role"] not in _FLOAT_ROLES or n["op"] != "call_function" or n["id"] in annotated:
            continue
        for before, after in into.items():
            srcs = [s for s in snap.inputs[n["id"]] if snap.node[s]["role"] == before]
            dsts = [u for u in snap.users[n["id"]] if snap.node[u]["role"] == after]
            if srcs and dsts:
                trip = "dq → fp32 → q" if before == "dequantize" else "an observer before and after it"
                name = n["id"] if n["id"] == n["target"] else f"{n['id']} ({n['target']})"
                out.append(
                    finding(
                        "fp32-island",
                        [n["id"], *srcs, *dsts],
                        f"{name} is not annotated but sits between quantized ops ({trip}): its "
                        f"input is dequantized and its output quantized again (a requantize round trip, ao#3609) — "
                        f"annotate it, e.g. with a SharedQuantizationSpec on its input, if the backend runs it in int8.",
                    )
                )
                break
    return out


def _qparams(q: dict) -> tuple:
    return q["dtype"], q["quant_min"], q["quant_max"], tuple(q["scale"] or ()), tuple(q["zero_point"] or ())


def mismatched_observers(snap: Snapshot) -> list[dict]:
    """One tensor quantized twice with different specs: two observers, or after convert two quantize params."""
    out = []
    by_tensor: dict[str, list[tuple[Key, Key, str]]] = {}
    for key, other, reason in blocked(snap):
        by_tensor.setdefault(tensor_of(key), []).append((key, other, reason))
    for tensor, pairs in by_tensor.items():
        obs = [o["id"] for o in snap.observers if o["observes"] == tensor]
        nodes = [tensor] + [k[2] for p in pairs for k in p[:2] if k[0] == "edge"]
        why = "; ".join(f"{key_text(k)} vs {key_text(o)}: {r}" for k, o, r in pairs)
        out.append(
            finding(
                "mismatched-observers",
                nodes,
                f"{tensor} has {len(obs)} observers ({', '.join(obs)}) because its specs do not merge ({why}); after "
                f"convert it is quantized twice, a dq→q requantize (executorch#22238) — give the edges equal specs "
                f"or a SharedQuantizationSpec.",
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
                    f"{tensor} is quantized {len(variants)} ways ({ranges}): its observers had different specs, so a "
                    f"dq→q requantize remains (executorch#22238) — give its edges equal specs or a SharedQuantizationSpec.",
                )
            )
    return out


def _variant_text(p: tuple) -> str:
    """`int8 [-128, 127] scale 0.0123`; a dynamic quantize has no fixed scale (it is computed per batch)."""
    scale = f"scale {p[3][0]:.4g}" if p[3] and isinstance(p[3][0], (int, float)) else "dynamic scale"
    return f"{p[0] or '?'} [{p[1]}, {p[2]}] {scale}"


def _weight_granularity(snap: Snapshot) -> dict[str, str]:
    """Consumer (or dequantize) node → `per_channel` / `per_tensor` for every quantized weight."""

    def is_param(name: str) -> bool:
        return snap.node.get(name, {}).get("role") == "param"

    specs = spec_by_key(snap)
    out = {}
    for k in specs:
        spec = root_spec(k, specs) if k[0] == "edge" and is_param(k[1]) else None
        if spec and spec["qscheme"]:
            out[k[2]] = "per_channel" if "channel" in spec["qscheme"] else "per_tensor"
    for q in snap.qdq:  # after convert a weight is a lone dq on a frozen parameter
        if q["kind"] == "dequantize" and q["tensor"] and is_param(q["tensor"]) and q["granularity"] != "affine":
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
            f"{len(tensor)} weight(s) are quantized per-tensor (at {', '.join(tensor)}) while {len(channel)} other(s) "
            f"are per-channel: a per-tensor weight shares one scale across all output channels and usually loses "
            f"accuracy — check the quantizer's config for these ops.",
        )
    ]


analysis_failed = part_failed  # one wording for a part of the builder and a findings rule


def explain(snap: Snapshot, problems: list[dict] | None = None) -> list[dict]:
    """Every finding for this snapshot; `problems` are pl.check's, recorded when the run prepared."""
    out = list(problems or [])
    for rule in (nothing_quantized, decomposed, fp32_islands, mismatched_observers, per_tensor_weights):
        try:
            out += rule(snap)
        except Exception as e:
            out.append(analysis_failed(f"findings.{rule.__name__}", e))
    return out


def with_findings(snap: Snapshot, problems: list[dict] | None = None) -> Snapshot:
    """Fill the snapshot's `findings` (the builder leaves them empty: the rules read the finished snapshot)."""
    failed_parts = [f for f in snap.data["findings"] if f["kind"] == "analysis-failed"]  # the builder's
    snap.data["findings"] = failed_parts + [f for f in explain(snap, problems) if f not in failed_parts]
    return snap
