"""Whether an annotation asks for fake quantization (a QAT config, `is_qat=True`), before prepare inserts anything.

pl.check and pl.blame stop right after annotate: the fake-quantize modules a QAT spec builds do not exist yet,
so the spec's constructor is asked instead (an observer or fake-quantize module is cheap to build).
"""

from __future__ import annotations

import torch

from .._targets import BATCH_NORMS, short_name
from .._torchao import is_fake_quant_module
from ..snapshot.keys import edge_or_node_specs


def fake_quant_specs(gm: torch.fx.GraphModule) -> int:
    """How many of the graph's annotated specs build a fake-quantize module."""
    made: dict[int, bool] = {}
    found = 0
    for spec in edge_or_node_specs(gm).values():
        ctr = getattr(spec, "observer_or_fake_quant_ctr", None)
        if ctr is None:
            continue
        if id(ctr) not in made:
            try:
                made[id(ctr)] = is_fake_quant_module(ctr())
            except Exception:  # a constructor that needs arguments: not one torchao's configs make
                made[id(ctr)] = False
        found += made[id(ctr)]
    return found


def batch_norms(gm: torch.fx.GraphModule) -> int:
    """How many batch-norm nodes the graph has: prepare_pt2e folds the conv → batch_norm ones before annotating,
    which is what makes a QAT config on the PTQ path wrong (a model without them prepares as torchao's tests do)."""
    return sum(1 for n in gm.graph.nodes if n.op == "call_function" and short_name(n.target) in BATCH_NORMS)
