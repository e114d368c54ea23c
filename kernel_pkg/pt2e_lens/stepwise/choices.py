"""Which sites the workbench leaves in fp32: a node, a module or a recipe site → KeepFp32's edges and outputs.

Each pick keeps its label (the node name, the module path, the recipe site's id) so `wb.quantize(label)`
takes exactly that pick back. Names are read from the graph the quantizer annotates (the run's "annotated"
stage once prepared, else "exported"), as `pl.KeepFp32` wants them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import torch

from .. import i18n
from ..errors import Pt2eLensError
from ..snapshot import Snapshot


@dataclasses.dataclass(frozen=True)
class Pick:
    label: str
    edges: tuple[tuple[str, str], ...]
    outputs: tuple[str, ...]


def _module_path(model: Any, target: torch.nn.Module) -> str | None:
    if not isinstance(model, torch.nn.Module) or isinstance(model, torch.fx.GraphModule):
        return None
    for name, sub in model.named_modules():
        if sub is target and name:
            return name
    return None


def _nodes_pick(label: str, names: list[str], snap: Snapshot) -> Pick:
    inside = set(names)
    # the edges into the nodes and out of them: a consumer's input spec would quantize the output all the same
    edges = tuple((e["src"], e["dst"]) for e in snap.edges if e["dst"] in inside or e["src"] in inside)
    return Pick(label, edges, tuple(names))


def pick_of(target: Any, snap: Snapshot, model: Any) -> Pick:
    """A node (name or fx Node) keeps its inputs and its output fp32 (also where a consumer would quantize it);
    a module (instance or path) every node in it."""
    if isinstance(target, torch.fx.Node):
        target = target.name
    if isinstance(target, torch.nn.Module):
        path = _module_path(model, target)
        if path is None:
            raise Pt2eLensError(i18n.t("workbench.error.not_a_submodule", got=type(target).__name__))
        target = path
    if not isinstance(target, str):
        raise Pt2eLensError(i18n.t("workbench.error.keep_what", got=type(target).__name__))
    names = {n["id"] for n in snap.nodes}
    if target in names:
        return _nodes_pick(target, [target], snap)
    inside = [
        n["id"]
        for n in snap.nodes
        if n["op"] == "call_function" and any(p == target or p.startswith(target + ".") for p, _ in n["module_stack"])
    ]
    if not inside:
        raise Pt2eLensError(i18n.t("workbench.error.unknown_target", name=repr(target)))
    return _nodes_pick(target, inside, snap)


def site_pick(site: Any) -> Pick:
    """A recipe site (why/sites.py `Site`): its own keys, as pl.recipe's quantizer leaves them unannotated."""
    edges = tuple((k[1], k[2]) for k in site.keys if k[0] == "edge")
    outputs = tuple(k[1] for k in site.keys if k[0] == "node")
    return Pick(site.id, edges, outputs)


def merged(picks: list[Pick]) -> tuple[list[tuple[str, str]], list[str]]:
    """Every pick's edges and outputs, each once, in the order picked."""
    edges = list(dict.fromkeys(e for p in picks for e in p.edges))
    outputs = list(dict.fromkeys(o for p in picks for o in p.outputs))
    return edges, outputs
