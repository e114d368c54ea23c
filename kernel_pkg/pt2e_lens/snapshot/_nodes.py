"""Nodes and edges of a GraphModule, as the contract's plain dicts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import torch

from .._targets import full_name, qdq_kind, short_name
from .._torchao import is_observer_module

_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_LIBRARY_PATHS = ("/torch/", "/torchao/", "/site-packages/", "/dist-packages/", "<frozen")


def flat_inputs(node: torch.fx.Node) -> Iterator[torch.fx.Node]:
    """Node inputs in argument order (args, then kwargs), duplicates kept: their index is the position."""
    stack: list[Iterator[Any]] = [iter((node.args, tuple(node.kwargs.values())))]
    while stack:
        for item in stack[-1]:
            if isinstance(item, torch.fx.Node):
                yield item
            elif isinstance(item, (tuple, list)):
                stack.append(iter(item))
                break
            elif isinstance(item, dict):
                stack.append(iter(item.values()))
                break
        else:
            stack.pop()


def role(node: torch.fx.Node, modules: dict[str, torch.nn.Module], qdq_roles: dict | None = None) -> str:
    op = node.op
    if op == "placeholder":
        return "input"
    if op == "get_attr":
        return "param"
    if op == "output":
        return "output"
    if op == "call_module" and is_observer_module(modules.get(str(node.target))):
        return "observer"
    if op == "call_function":
        inserted = qdq_roles.get(node.name) if qdq_roles else None  # what an observer's convert() put there
        return inserted[0] if inserted else (qdq_kind(node.target) or "compute")
    return "compute"


_DTYPES = {d: str(d).removeprefix("torch.") for d in vars(torch).values() if isinstance(d, torch.dtype)}


def _shape_dtype(val: Any) -> tuple[list | None, str | None]:
    if isinstance(val, (tuple, list)):
        val = next((v for v in val if isinstance(v, torch.Tensor)), None)
    if not isinstance(val, torch.Tensor):
        return None, None
    shape = [d if type(d) is int else str(d) for d in val.shape]
    dtype = val.dtype
    return shape, _DTYPES.get(dtype) or str(dtype).removeprefix("torch.")


def _source(trace: str | None) -> str | None:
    """The innermost frame of the user's own code: torch's frames say nothing about the model."""
    if not trace:
        return None
    frames = _FRAME.findall(trace)
    user = [f for f in frames if not any(p in f[0] for p in _LIBRARY_PATHS)]
    file, line = (user or frames or [(None, None)])[-1]
    return f"{file}:{line}" if file else None


def provenance(node: torch.fx.Node) -> list[str]:
    """Names of the root nodes in meta['from_node'] (what this node was made from, across passes)."""
    roots: list[str] = []
    stack = list(node.meta.get("from_node") or ())
    seen = set()
    while stack:
        src = stack.pop()
        parents = getattr(src, "from_node", None) or ()
        if parents:
            stack.extend(parents)
        else:
            name = getattr(src, "name", None)
            if name and name not in seen:
                seen.add(name)
                roots.append(name)
    return roots


def _module_stack(meta: dict) -> list[list[str]]:
    stack = meta.get("nn_module_stack") or {}
    out = []
    for path, cls in stack.values():
        if not path:
            continue  # the root module: every node is in it
        cls_name = cls if isinstance(cls, str) else getattr(cls, "__name__", str(cls))
        out.append([path, cls_name.rsplit(".", 1)[-1]])
    return out


def _direct_inputs(node: torch.fx.Node) -> list[torch.fx.Node]:
    """Most aten nodes have flat args and no kwargs: skip the general walk for them."""
    args = node.args
    if not node.kwargs and not any(type(a) in (tuple, list, dict) for a in args):
        return [a for a in args if type(a) is torch.fx.Node]
    return list(flat_inputs(node))


class _Memo:
    """What repeats across nodes, computed once per build: repeated layers share stack traces, module
    stacks and targets (a 5k-node transformer has 10 distinct traces). Shared lists are read-only data."""

    def __init__(self) -> None:
        self.sources: dict[str, str | None] = {}
        self.stacks: dict[tuple, list] = {}
        self.names: dict[Any, tuple[str, str]] = {}

    def source(self, trace: str | None) -> str | None:
        if not trace:
            return None
        if trace not in self.sources:
            self.sources[trace] = _source(trace)
        return self.sources[trace]

    def module_stack(self, meta: dict) -> list:
        stack = meta.get("nn_module_stack")
        if not stack:
            return []
        try:
            key = tuple(stack.values())
            if key not in self.stacks:
                self.stacks[key] = _module_stack(meta)
            return self.stacks[key]
        except TypeError:  # an unhashable class object in the stack
            return _module_stack(meta)

    def target_names(self, target: Any) -> tuple[str, str]:
        try:
            if target not in self.names:
                self.names[target] = (short_name(target), full_name(target))
            return self.names[target]
        except TypeError:  # an unhashable target
            return short_name(target), full_name(target)


def nodes_and_edges(
    gm: torch.fx.GraphModule, modules: dict[str, torch.nn.Module], qdq_roles: dict | None = None
) -> tuple[list[dict], list[dict]]:
    memo = _Memo()
    nodes, edges = [], []
    for node in gm.graph.nodes:
        meta = node.meta
        shape, dtype = _shape_dtype(meta.get("val"))
        stack = memo.module_stack(meta)
        target, target_full = memo.target_names(node.target)
        nodes.append(
            {
                "id": node.name,
                "op": node.op,
                "target": target,
                "target_full": target_full,
                "role": role(node, modules, qdq_roles),
                "module_path": stack[-1][0] if stack else "",
                "module_stack": stack,
                "shape": shape,
                "dtype": dtype,
                "source": memo.source(meta.get("stack_trace")),
                "provenance": provenance(node) if meta.get("from_node") else [],
                "observer": None,
            }
        )
        for pos, src in enumerate(_direct_inputs(node)):
            edges.append({"src": src.name, "dst": node.name, "arg": pos})
    return nodes, edges
