"""Matching Inductor's post-grad graph back to the converted graph through `meta["from_node"]`.

A fused int8 kernel is ONE post-grad node that stands for a whole region of the converted graph (dq →
conv → relu → q and the weight's dq): its from_node names only the region's last node. The rest of the
region is what lies upstream of that node and left no post-grad node of its own.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import torch


def _sources(node: torch.fx.Node) -> list[Any]:
    return list(node.meta.get("from_node") or [])


def converted_names(node: torch.fx.Node, names: set[str]) -> list[str]:
    """The converted-graph nodes a post-grad node came from: along each from_node chain, the nearest step
    whose name the converted graph has. (Inductor traces a copy of the converted graph, so the chain's first
    steps carry the converted names; its root is further back: an observer, the exported node.)"""
    out: list[str] = []
    for src in _sources(node):
        step = src
        while step is not None:
            info = getattr(step, "node_info", None)
            name = info.name if info is not None else None
            if name in names:
                if name not in out:
                    out.append(name)
                break
            step = step.from_node[-1] if step.from_node else None
    return out


def post_grad_nodes(graphs: Iterable[torch.fx.Graph], converted: torch.fx.Graph) -> dict[str, list[torch.fx.Node]]:
    """Converted node name → the post-grad nodes (placeholders, constants and calls) it became."""
    names = {n.name for n in converted.nodes}
    out: dict[str, list[torch.fx.Node]] = {}
    for g in graphs:
        for p in g.nodes:
            for name in converted_names(p, names):
                out.setdefault(name, []).append(p)
    return out


def is_fused_kernel(p: torch.fx.Node) -> bool:
    """A quantized conv/linear lowering: Inductor's pattern replaced a q/dq region with a partial of it."""
    return p.op == "call_function" and (
        isinstance(p.target, functools.partial) or getattr(p.target, "namespace", None) == "onednn"
    )


def fused_regions(converted: torch.fx.Graph, post: dict[str, list[torch.fx.Node]]) -> dict[str, tuple[Any, dict]]:
    """Converted node name → (target, kwargs) of the fused kernel that absorbed it."""
    by_name = {n.name: n for n in converted.nodes}
    alive = {name for name, ps in post.items() if any(p.op == "call_function" for p in ps)}
    out: dict[str, tuple[Any, dict]] = {}
    for name, ps in post.items():
        kernels = [p for p in ps if is_fused_kernel(p)]
        if not kernels:
            continue
        kernel = (kernels[0].target, dict(kernels[0].kwargs))
        out.setdefault(name, kernel)
        todo = list(by_name[name].all_input_nodes)
        while todo:
            m = todo.pop()
            if m.name in out or m.name in alive or m.op == "placeholder":
                continue
            out[m.name] = kernel
            todo.extend(m.all_input_nodes)
    return out
