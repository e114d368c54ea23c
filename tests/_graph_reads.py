"""What torchao put in a prepared or converted GraphModule, read from the graph itself: the observer modules its
nodes call and its q/dq nodes with their literal qparams. Shared by the tests that compare pl.capture with torchao's
own flow (test_copy_graph_refs, test_vendor_quantizers)."""

from collections import Counter

import torch


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
