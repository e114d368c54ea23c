"""What torchao put in a prepared or converted GraphModule, read from the graph itself: the observer modules its
nodes call and its q/dq nodes with their literal qparams; and torchao's own flow that makes them. Shared by the tests
that compare pl.capture with torchao's own flow (test_copy_graph_refs, test_copy_nonleaf, test_vendor_quantizers)."""

import warnings
from collections import Counter

import torch

from pt2e_lens._torchao import convert_pt2e, prepare_pt2e


def observer_types(gm: torch.fx.GraphModule) -> Counter:
    """The observer (or fake-quantize) class of each observer call in the graph, counted per call."""
    return Counter(  # one shared instance may sit under several names: named_modules() lists it once
        type(gm.get_submodule(str(n.target))).__name__
        for n in gm.graph.nodes
        if n.op == "call_module" and "activation_post_process" in str(n.target)
    )


def qdq_nodes(gm: torch.fx.GraphModule, match: str) -> list[tuple]:
    """Each call_function whose target names `match` ("quantize_per": the quantize and dequantize ops; "quantize":
    those and the other quantize ops), in graph order: its name, op and literal qparams (per-tensor scale and zero
    point; per-channel ones are get_attr nodes, left out)."""
    out = []
    for n in gm.graph.nodes:
        if n.op == "call_function" and match in str(n.target):
            out.append((n.name, str(n.target), tuple(a for a in n.args[1:3] if not isinstance(a, torch.fx.Node))))
    return out


def torchao_flow(gm: torch.fx.GraphModule, quantizer, batches: list[tuple]) -> tuple[Counter, torch.fx.GraphModule]:
    """torchao's own prepare_pt2e → calibration → convert_pt2e on `gm` (the caller's export of the model): the
    prepared graph's observer types (observer_types) and the converted module."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = prepare_pt2e(gm, quantizer)
        observers = observer_types(prepared)
        for b in batches:
            prepared(*b)
        return observers, convert_pt2e(prepared)
