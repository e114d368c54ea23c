"""Nodes and edges of a GraphModule, as the contract's plain dicts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import torch
from torch.fx import Node
from torch.fx.immutable_collections import immutable_list

from .._targets import full_name, qdq_kind, short_name
from .._torchao import is_observer_module
from .dim_names import dim_text

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
            elif isinstance(item, slice):  # fx maps slices too (`x[a:b]` with node bounds)
                stack.append(iter((item.start, item.stop, item.step)))
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


def _shape_dtype(val: Any, shapes: dict | None = None) -> tuple[list | None, str | None]:
    """Shape (symbolic sizes as text) and dtype name of a node's value; `shapes` memoises the shape lists
    (shared between nodes: read-only data)."""
    if isinstance(val, (tuple, list)):
        val = next((v for v in val if isinstance(v, torch.Tensor)), None)
    if not isinstance(val, torch.Tensor):
        return None, None
    size, dtype = val.shape, val.dtype
    try:
        shape = shapes[size]  # type: ignore[index]
    except (KeyError, TypeError):  # not seen yet, no memo, or a symbolic size that does not hash
        shape = [d if type(d) is int else dim_text(d) for d in size]
        if shapes is not None and all(type(d) is int for d in size):
            shapes[size] = shape
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


_LEAVES = frozenset({int, float, bool, str, type(None), torch.dtype, torch.device, torch.layout, torch.memory_format})
_SEQUENCES = frozenset({list, tuple, immutable_list})


def _direct_inputs(node: torch.fx.Node) -> list[torch.fx.Node]:
    """Most aten nodes have flat args and no kwargs: skip the general walk for them. Anything else (fx's
    `immutable_list` of `cat([a, b])`, a tuple, a dict, a slice) takes the walk that opens containers."""
    if node.kwargs:
        return list(flat_inputs(node))
    out: list[torch.fx.Node] = []
    for a in node.args:
        kind = type(a)
        if kind is Node:
            out.append(a)  # type: ignore[arg-type]  # `type(a) is Node` says so; mypy cannot narrow it
        elif kind in _LEAVES:
            continue
        elif kind in _SEQUENCES and all(type(i) in _LEAVES for i in a):  # type: ignore[union-attr]  # a shape
            continue
        else:
            return list(flat_inputs(node))
    return out


class _Memo:
    """What repeats across nodes, computed once per build: repeated layers share stack traces, module
    stacks and targets (a 5k-node transformer has 10 distinct traces). Shared lists are read-only data.

    Targets are keyed by id(): an OpOverload hashes in Python, and the graph keeps every target alive
    for the whole build, so an id cannot be reused by another target meanwhile."""

    def __init__(self, modules: dict[str, torch.nn.Module]) -> None:
        self.modules = modules
        self.sources: dict[str, str | None] = {}
        self.stacks: dict[tuple, list] = {}
        self.targets: dict[tuple[str, int], tuple[str, str, str]] = {}
        self.shapes: dict[torch.Size, list[int]] = {}

    def source(self, trace: str | None) -> str | None:
        if not trace:
            return None
        try:
            return self.sources[trace]
        except KeyError:
            found = self.sources[trace] = _source(trace)
            return found

    def module_stack(self, meta: dict) -> list:
        stack = meta.get("nn_module_stack")
        if not stack:
            return []
        try:
            key = tuple(stack.values())
            found = self.stacks.get(key)
            if found is None:
                found = self.stacks[key] = _module_stack(meta)
            return found
        except TypeError:  # an unhashable class object in the stack
            return _module_stack(meta)

    def target(self, node: torch.fx.Node) -> tuple[str, str, str]:
        """(short name, full name, role without the q/dq a convert inserted) of the node's op and target."""
        key = (node.op, id(node.target))
        found = self.targets.get(key)
        if found is None:
            target = node.target
            found = self.targets[key] = (short_name(target), full_name(target), role(node, self.modules))
        return found


def nodes_and_edges(
    gm: torch.fx.GraphModule, modules: dict[str, torch.nn.Module], qdq_roles: dict | None = None
) -> tuple[list[dict], list[dict]]:
    memo = _Memo(modules)
    inserted = qdq_roles
    nodes: list[dict] = []
    edges: list[dict] = []
    add_node, add_edge = nodes.append, edges.append
    for node in gm.graph.nodes:
        meta = node.meta
        name = node.name
        shape, dtype = _shape_dtype(meta.get("val"), memo.shapes)
        stack = memo.module_stack(meta)
        target, target_full, kind = memo.target(node)
        if inserted:
            hit = inserted.get(name)  # what an observer's convert() put there, as role() reads it
            if hit and node.op == "call_function":
                kind = hit[0]
        add_node(
            {
                "id": name,
                "op": node.op,
                "target": target,
                "target_full": target_full,
                "role": kind,
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
            add_edge({"src": src.name, "dst": name, "arg": pos})
    return nodes, edges
