"""torch.export's `_guards_fn` node, and the graph each quantizer's own flow annotates.

`ep.module()` (torch >= 2.9) puts a `_guards_fn` call_module after the placeholders that checks the inputs'
shapes; `ep.module(check_guards=False)` leaves it out (a forward pre-hook checks the inputs instead).
ExecuTorch's quantizer passes (Arm TOSA / Ethos-U, Cortex-M) reject any call_module, so ExecuTorch's own
flows annotate `ep.module(check_guards=False)` - and torch itself leaves the node out whenever code of
ExecuTorch or torchao calls `ep.module()` (`_ok_to_generate_guards_fn` in torch/export/_unlift.py). The
node also changes counts: it is a user of each input, so an observed input gets one dequantize more.

pt2e-lens annotates what the quantizer's own flow annotates: `ep.module(check_guards=False)` for an
ExecuTorch quantizer (or one that wraps one), `ep.module()` as a notebook gets it for any other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch

from .._torchao import Quantizer
from ..analyses.focus import GUARDS_FN


def has_guards(gm: torch.fx.GraphModule) -> bool:
    return any(n.op == "call_module" and n.target == GUARDS_FN for n in gm.graph.nodes)


def without_guards(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """`gm` (a private copy: changed in place) without its `_guards_fn` node, as `check_guards=False` makes it."""
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and node.target == GUARDS_FN and not node.users:
            gm.graph.erase_node(node)
            gm.delete_submodule(GUARDS_FN)
    gm.recompile()
    return gm


def _quantizers(quantizer: Any, seen: set[int]) -> Iterator[Any]:
    """The quantizer and every quantizer it holds (ComposableQuantizer's list, a wrapper's inner one)."""
    if id(quantizer) in seen:
        return
    seen.add(id(quantizer))
    yield quantizer
    for value in getattr(quantizer, "__dict__", {}).values():
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(item, Quantizer):
                yield from _quantizers(item, seen)


def from_executorch(quantizer: Any) -> bool:
    """True when the quantizer (or one it holds) is ExecuTorch's: its flow annotates a graph without `_guards_fn`."""
    return any(type(q).__module__.split(".")[0] == "executorch" for q in _quantizers(quantizer, set()))
