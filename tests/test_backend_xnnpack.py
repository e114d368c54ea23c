"""XNNPACK through ExecuTorch: our per-node outcomes add up to ExecuTorch's own get_delegation_info, on the
model shapes XNNPACK meets (residual, depthwise + hardswish, linear + GELU, ops it does not take), with
torchao's XNNPACKQuantizer static per-channel and dynamic. One lowering per model (module-scoped)."""

import re
from collections import Counter

import pytest
import torch
from _fingerprint import fingerprint
from _xnnpack_models import CASES

import pt2e_lens as pl

pytest.importorskip("executorch", reason="the executorch extra: pip install 'pt2e-lens[executorch]'")

from executorch.devtools.backend_debug import get_delegation_info  # noqa: E402
from torchao.testing.pt2e._xnnpack_quantizer import (  # noqa: E402
    XNNPACKQuantizer,
    get_symmetric_quantization_config,
)

from pt2e_lens.backends import xnnpack  # noqa: E402


def _captured(name):
    model_cls, shape, dynamic = CASES[name]
    torch.manual_seed(0)
    model, x = model_cls().eval(), (torch.randn(*shape),)
    config = get_symmetric_quantization_config(is_per_channel=True, is_dynamic=dynamic)
    run = pl.capture(model, x, XNNPACKQuantizer().set_global(config), calibration=[x, (torch.randn(*shape),)])
    return run, x


@pytest.fixture(scope="module")
def lowered():
    cache = {}

    def get(name):
        if name not in cache:
            run, x = _captured(name)
            gm = run["converted"].graph_module
            before = fingerprint(gm)
            record = xnnpack.lower(gm, x)
            assert fingerprint(gm) == before  # lowering worked on a private copy
            cache[name] = (run, x, record)
        return cache[name]

    return get


def _op_type(name):  # get_delegation_info's own grouping: the node name without its `_N` suffix
    return re.sub(r"_[\d]+$", "", name)


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcomes_add_up_to_executorchs_delegation_info(lowered, name):
    run, _, record = lowered(name)
    edge_gm = record.runner.edge.exported_program().graph_module
    info = get_delegation_info(edge_gm)
    theirs = Counter()
    for op, b in info.delegation_by_operator.items():
        theirs[(op, True)] += b.delegated
        theirs[(op, False)] += b.non_delegated
    ours = Counter()
    for node, outcome in record.nodes.items():
        for edge_name in record.records["became"][node]:
            ours[(_op_type(edge_name), outcome.outcome.startswith("delegated"))] += 1
    for edge_name, partition in record.records["unattributed"].items():
        ours[(_op_type(edge_name), partition is not None)] += 1
    # the getitems that read a delegate's outputs: ExecuTorch counts them as not delegated, no converted node made them
    for n in edge_gm.graph.nodes:
        if n.op == "call_function" and n.name.startswith("getitem") and "call_delegate" in str(n.args[0].target):
            ours[("getitem", False)] += 1
    assert +ours == +theirs
    assert info.num_delegated_subgraphs == record.records["num_delegated_subgraphs"] >= 1
    # every call_function node of the converted graph has an outcome, or nothing in the program came from it
    calls = [n.name for n in run["converted"].graph_module.graph.nodes if n.op == "call_function"]
    assert sorted(calls) == sorted([*record.nodes, *record.records["removed"]])
    partitions = {int(m.group(1)) for n in edge_gm.graph.nodes if (m := re.match(r"lowered_module_(\d+)$", n.name))}
    assert {o.partition for o in record.nodes.values() if o.partition is not None} == partitions


@pytest.mark.parametrize("name", sorted(CASES))
def test_int8_or_fp32_is_what_xnnpacks_serialized_graph_computes(lowered, name):
    from _xnnpack_serialized import compute_precisions

    _, _, record = lowered(name)
    source = {e: node for node, made in record.records["became"].items() for e in made}
    edge_gm = record.runner.edge.exported_program().graph_module
    checked = 0
    for child in edge_gm.children():
        quantized = compute_precisions(child)
        for n in child.original_module.graph_module.graph.nodes:
            handle = n.meta.get("debug_handle")
            if n.op != "call_function" or "quantize" in n.name or handle not in quantized or n.name not in source:
                continue
            outcome = record.nodes[source[n.name]].outcome
            assert outcome == ("delegated-int8" if quantized[handle] else "delegated-fp32"), (n.name, outcome)
            checked += 1
    assert checked >= 2
