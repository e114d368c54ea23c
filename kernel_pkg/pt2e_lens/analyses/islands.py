"""fp32 islands: connected runs of unannotated ops that sit between quantized tensors.

Read off the real graph's roles: in a prepared graph an island starts after an observer and ends at one; in
a converted graph it starts at a dequantize and ends at a quantize (the requantize round trip of ao#3609).
"""

from __future__ import annotations

from dataclasses import dataclass

from .._targets import quantization_op
from ..snapshot import Snapshot

# ops that compute nothing in an exported eval graph: an island of only these is no island
NO_OPS = frozenset({"dropout", "alpha_dropout", "feature_dropout", "feature_alpha_dropout", "alias", "detach"})
# ops whose int8 output can reuse the input's qparams (they move or pick values, never make new ones):
# for these a SharedQuantizationSpec is the right annotation; any other op needs its own output spec
KEEPS_QPARAMS = frozenset(
    {
        "view",
        "_unsafe_view",
        "reshape",
        "permute",
        "transpose",
        "t",
        "flatten",
        "squeeze",
        "unsqueeze",
        "expand",
        "slice",
        "select",
        "narrow",
        "contiguous",
        "clone",
        "getitem",
        "chunk",
        "split",
        "split_with_sizes",
        "unbind",
        "cat",
        "concat",
        "stack",
        "pad",
        "constant_pad_nd",
        "max_pool1d",
        "max_pool2d",
        "max_pool3d",
        "adaptive_max_pool2d",
        "pixel_shuffle",
        "pixel_unshuffle",
        "flip",
        "roll",
        "repeat",
    }
)
# the quantized tensor an island starts after, and the one it ends at
_ENTRY = {"observer": "observer", "dequantize": "quantize"}


@dataclass
class Island:
    ops: list[str]  # the island's real ops (no-ops left out), graph order
    passes: list[str]  # its no-ops (eval dropout …), graph order
    entries: list[str]  # observer / dequantize nodes feeding it
    exits: list[str]  # observer / quantize nodes it feeds
    converted: bool  # dq → … → q rather than observer → … → observer


def claimed(snap: Snapshot) -> set[str]:
    """Nodes a quantizer annotated: with a spec, or claimed (`_annotated=True`) as part of a fused pattern."""
    return {
        a["node"]
        for a in snap.annotations
        if a["annotated"] or a["output"] is not None or any(i["spec"] for i in a["inputs"])
    }


def inserted_by_convert(snap: Snapshot) -> set[str]:
    """The ops convert put there besides q/dq: a dynamic quantize's `choose_qparams` and the getitems that
    unpack its scale and zero point. They are the quantization itself, never an fp32 island to annotate."""
    out: set[str] = set()
    for n in snap.nodes:  # graph order: choose_qparams before its getitems
        if n["op"] != "call_function" or n["role"] != "compute":
            continue
        if quantization_op(n["target_full"]):
            out.add(n["id"])
        elif n["target"] == "getitem" and (srcs := snap.inputs[n["id"]]) and all(s in out for s in srcs):
            out.add(n["id"])
    return out


def _components(members: list[str], snap: Snapshot) -> list[list[str]]:
    """Groups of members joined by edges between members (union-find), each in graph order."""
    parent = {m: m for m in members}

    def root(m: str) -> str:
        while parent[m] != m:
            parent[m] = parent[parent[m]]
            m = parent[m]
        return m

    for m in members:
        for src in snap.inputs[m]:
            if src in parent:
                parent[root(src)] = root(m)
    groups: dict[str, list[str]] = {}
    for m in members:
        groups.setdefault(root(m), []).append(m)
    return list(groups.values())


def _on_a_path(members: list[str], snap: Snapshot, before: str, after: str) -> list[str]:
    """The members a value flows through from a `before` node to an `after` node without passing another."""
    inside = set(members)
    up: set[str] = set()
    for m in members:  # graph order: a node's inputs come first
        if any(snap.node[s]["role"] == before or s in up for s in snap.inputs[m]):
            up.add(m)
    down: set[str] = set()
    for m in reversed(members):
        if any(snap.node[u]["role"] == after or (u in down and u in inside) for u in snap.users[m]):
            down.add(m)
    return [m for m in members if m in up and m in down]


def islands(snap: Snapshot) -> list[Island]:
    """Every island of this graph, in graph order of its first node."""
    roles = {n["role"] for n in snap.nodes}
    done = claimed(snap) | inserted_by_convert(snap)
    members = [
        n["id"] for n in snap.nodes if n["role"] == "compute" and n["op"] == "call_function" and n["id"] not in done
    ]
    out = []
    for before, after in _ENTRY.items():
        if before not in roles or after not in roles:
            continue
        for group in _components(_on_a_path(members, snap, before, after), snap):
            entries = [s for m in group for s in snap.inputs[m] if snap.node[s]["role"] == before]
            exits = [u for m in group for u in snap.users[m] if snap.node[u]["role"] == after]
            ops = [m for m in group if snap.node[m]["target"] not in NO_OPS]
            if ops:
                passes = [m for m in group if m not in ops]
                out.append(
                    Island(ops, passes, list(dict.fromkeys(entries)), list(dict.fromkeys(exits)), before != "observer")
                )
    return out


def needs_own_qparams(snap: Snapshot, island: Island) -> list[str]:
    """The island's ops that make new values (layer_norm, gelu, add …): a shared spec would be wrong there."""
    return [m for m in island.ops if snap.node[m]["target"] not in KEEPS_QPARAMS]
