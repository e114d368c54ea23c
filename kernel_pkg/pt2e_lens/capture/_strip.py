"""The annotated graph, re-made from the prepared one: prepare_pt2e only adds observers after annotating."""

from __future__ import annotations

from collections.abc import Collection

import torch

from .._copy import private_copy
from .._torchao import is_observer_module


def without_observers(prepared: torch.fx.GraphModule, shared: Collection[int] = ()) -> torch.fx.GraphModule:
    """A private copy of `prepared` (sharing the tensors with ids in `shared`) with every observer node bypassed
    and removed."""
    gm = private_copy(prepared, shared)
    modules = dict(gm.named_modules())
    dropped = set()
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and is_observer_module(modules.get(node.target)):
            node.replace_all_uses_with(node.args[0])
            gm.graph.erase_node(node)
            dropped.add(node.target)
    for name in dropped:
        gm.delete_submodule(name)
    gm.recompile()
    return gm
