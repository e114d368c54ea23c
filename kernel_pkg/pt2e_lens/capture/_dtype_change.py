"""Why a calibration batch failed when the batch is fine: the prepared graph computes a node in another dtype
than the exported graph did.

A quantizer's `transform_for_annotation` may rewrite the graph before annotating: torchao's XNNPACKQuantizer
turns the Python scalar of `add`/`mul` into a float32 constant, so `arange(n) + 2` (int64 position ids) comes
out float32 and the embedding that reads it raises. Every batch fails there the same way; the node's
`meta["val"]` still says what export computed, so running the batch once node by node finds the first node
whose real dtype differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from .._copy import private_copy
from .._targets import short_name


@dataclass
class DtypeChange:
    node: str  # the first node whose value has another dtype than export gave it
    op: str
    exported: str  # its dtype in the exported graph
    prepared: str  # its dtype when the prepared graph runs
    inputs: list[tuple[str, str]]  # (input node, dtype it had when the prepared graph ran)


def _dtype_name(d: torch.dtype) -> str:
    return str(d).removeprefix("torch.")


class _FirstChange(torch.fx.Interpreter):
    def __init__(self, gm: torch.fx.GraphModule):
        super().__init__(gm)
        self.found: DtypeChange | None = None
        self.batch_differs = False
        self.dtypes: dict[str, torch.dtype] = {}

    def run_node(self, n: torch.fx.Node) -> Any:
        out = super().run_node(n)
        if isinstance(out, torch.Tensor):
            self.dtypes[n.name] = out.dtype
            want = n.meta.get("val")
            if self.found is None and isinstance(want, torch.Tensor) and want.dtype != out.dtype:
                if n.op == "placeholder":  # the batch's own dtype differs: the batch, not the graph
                    self.batch_differs = True
                    return out
                inputs = [
                    (a.name, _dtype_name(self.dtypes[a.name])) for a in n.all_input_nodes if a.name in self.dtypes
                ]
                self.found = DtypeChange(
                    n.name, short_name(n.target), _dtype_name(want.dtype), _dtype_name(out.dtype), inputs
                )
        return out


def first_dtype_change(gm: torch.fx.GraphModule, args: tuple) -> DtypeChange | None:
    """Run `args` through a private copy of the prepared graph (its observers must not see them) and return the
    first node computed in another dtype than export recorded, or None (then the batch itself is the cause: also
    when an input of the batch has another dtype than the exported one)."""
    try:
        probe = _FirstChange(private_copy(gm))
    except Exception:  # a module that cannot be copied: say what the forward said, nothing more
        return None
    try:
        with torch.no_grad():
            probe.run(*args)
    except Exception:
        pass  # the failure we are explaining: the nodes before it are what we wanted
    return None if probe.batch_differs else probe.found
