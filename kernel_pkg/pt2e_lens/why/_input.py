"""What the why-analyses read: the right stage of a Run, and short text for edge/node keys."""

from __future__ import annotations

from typing import Any

from ..errors import Pt2eLensError
from ..snapshot import Snapshot, snapshot

Key = tuple  # ("edge", src, dst) or ("node", name), as in snapshot._observers

_OBSERVED = ("calibrated", "prepared")


def observed_snapshot(x: Any, what: str) -> Snapshot:
    """The snapshot of a graph with observers: a Run's calibrated/prepared stage, or x itself."""
    stages = getattr(x, "stages", None)
    if stages is not None and hasattr(x, "latest"):  # a Run
        name = next((s for s in _OBSERVED if s in stages), None)
        if name is None:
            raise Pt2eLensError(f"{what} needs a prepared graph: call run.prepare(quantizer) first.")
        x = x[name]
    snap = snapshot(x)
    if not snap.observers and snap.annotations and snap.stage not in (None, *_OBSERVED):
        raise Pt2eLensError(f"{what} reads observers, and the {snap.stage!r} stage has none: pass run['prepared'].")
    return snap


def finding(kind: str, nodes: list[str], message: str) -> dict:
    """The contract's Finding: {kind, message, nodes} (node ids without repeats)."""
    return {"kind": kind, "message": message, "nodes": list(dict.fromkeys(nodes))}


def key_of(at: dict) -> Key:
    """The contract's EdgeOrNode dict as a hashable key."""
    return ("edge", *at["edge"]) if "edge" in at else ("node", at["node"])


def key_text(key: Key) -> str:
    return f"{key[1]}→{key[2]}" if key[0] == "edge" else f"{key[1]} (output)"


def tensor_of(key: Key) -> str:
    """The node whose output tensor the edge or node key quantizes."""
    return key[1]


def spec_by_key(snap: Snapshot) -> dict[Key, dict]:
    """Every annotated edge/node with its spec dict, in torchao's order (graph order; edges before output)."""
    out: dict[Key, dict] = {}
    for a in snap.annotations:
        for i in a["inputs"]:
            if i["spec"] is not None:
                out[("edge", i["src"], a["node"])] = snap.spec[i["spec"]]
        if a["output"] is not None:
            out[("node", a["node"])] = snap.spec[a["output"]]
    return out
