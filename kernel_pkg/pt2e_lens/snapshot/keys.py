"""Edge/node keys: how pt2e-lens names what a quantization spec quantizes, and where torchao's live.

A key is ("edge", src, dst) for the input edge src → dst, or ("node", name) for a node's output. Unlike
torchao's EdgeOrNode (Node objects) it is plain data: equal across copies of a graph, and what the
contract's `{"edge": [src, dst]}` / `{"node": name}` dicts say.
"""

from __future__ import annotations

from typing import Any

import torch

from .._torchao import Q_ANNOTATION_KEY

Key = tuple  # ("edge", src, dst) or ("node", name)


def key_of(at: dict) -> Key:
    """The contract's EdgeOrNode dict as a key."""
    return ("edge", *at["edge"]) if "edge" in at else ("node", at["node"])


def torchao_key(edge_or_node: Any) -> Key:
    """torchao's EdgeOrNode, a (producer, consumer) tuple of Nodes or a Node, as a key."""
    if isinstance(edge_or_node, tuple):
        return ("edge", edge_or_node[0].name, edge_or_node[1].name)
    return ("node", edge_or_node.name)


def tensor_of(key: Key) -> str:
    """The node whose output tensor the edge or node key quantizes."""
    return key[1]


def edge_or_node_specs(gm: torch.fx.GraphModule) -> dict[Any, Any]:
    """{torchao EdgeOrNode: spec} for every edge/node an annotation asks to quantize, in the order
    prepare_pt2e visits them (graph order, a node's inputs before its output)."""
    out: dict[Any, Any] = {}
    for node in gm.graph.nodes:
        ann = node.meta.get(Q_ANNOTATION_KEY)
        if ann is None:
            continue
        for src, spec in (ann.input_qspec_map or {}).items():
            if spec is not None:
                out[(src, node)] = spec
        if ann.output_qspec is not None:
            out[node] = ann.output_qspec
    return out


def key_specs(gm: torch.fx.GraphModule) -> dict[Key, Any]:
    """The same, keyed by names: ("edge", src, dst) or ("node", name)."""
    return {torchao_key(k): spec for k, spec in edge_or_node_specs(gm).items()}


def serves_from_callback(edge_or_node_to_obs: dict, prepared: torch.fx.GraphModule) -> dict[Key, str]:
    """Turn torchao's {EdgeOrNode: observer instance} into {key: module name} after prepare."""
    name_of: dict[int, str] = {}
    for name, mod in prepared.named_modules(remove_duplicate=False):
        name_of.setdefault(id(mod), name)
    out: dict[Key, str] = {}
    for eon, inst in edge_or_node_to_obs.items():
        name = name_of.get(id(inst))
        if name is None:
            continue  # torchao skipped inserting it (e.g. a mutable-buffer edge)
        out[torchao_key(eon)] = name
    return out


def spec_by_key(snap: Any) -> dict[Key, dict]:
    """Every annotated edge/node of a Snapshot with its spec dict, in torchao's order (graph order; edges
    before output)."""
    out: dict[Key, dict] = {}
    for a in snap.annotations:
        for i in a["inputs"]:
            if i["spec"] is not None:
                out[("edge", i["src"], a["node"])] = snap.spec[i["spec"]]
        if a["output"] is not None:
            out[("node", a["node"])] = snap.spec[a["output"]]
    return out
