"""Whether an annotation asks for fake quantization (a QAT config, `is_qat=True`), before prepare inserts anything.

pl.check and pl.blame stop right after annotate: the fake-quantize modules a QAT spec builds do not exist yet,
so the spec's constructor is asked instead (an observer or fake-quantize module is cheap to build).
"""

from __future__ import annotations

import torch

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
