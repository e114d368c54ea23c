"""A dynamic quantize's own nodes after convert (issue 25): `choose_qparams` and the getitems that unpack its
scale and zero point are the quantization, not an fp32 island, and no finding advises annotating them.
Oracle: torch's converted graph (the nodes of the quantization namespaces convert_pt2e inserted) and
`real_fp32_ops` over it."""

import torch
from _corpus_models import DynamicAndStatic, ViTBlock, qparams_nodes, real_fp32_ops
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens._torchao import ComposableQuantizer


def dynamic(**kw):
    return get_symmetric_quantization_config(is_dynamic=True, **kw)


def capture(model, x, quantizer):
    torch.manual_seed(0)
    return pl.capture(model.eval(), x, quantizer, calibration=[x])


def island_findings(stage):
    return [f for f in pl.snapshot(stage).findings if f["kind"] == "fp32-island"]


def reported_ops(stage) -> set[str]:
    snap = pl.snapshot(stage)
    return {n for f in island_findings(stage) for n in f["nodes"] if snap.node[n]["role"] == "compute"}


def test_a_dynamic_linear_model_has_no_island():
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 8))
    run = capture(model, (torch.randn(2, 4, 8),), XNNPACKQuantizer().set_global(dynamic(is_per_channel=True)))
    converted = run["converted"].graph_module
    inserted = {n.name for n in qparams_nodes(converted)}
    assert any(n.target == torch.ops.quantized_decomposed.choose_qparams.tensor for n in converted.graph.nodes)
    assert inserted and island_findings(run["converted"]) == []
    assert not any(n in f["nodes"] for f in pl.snapshot(run["converted"]).findings for n in inserted)


def test_a_static_quantized_input_to_a_dynamic_linear_leaves_only_real_ops_in_islands():
    # the static add's dequantize feeds the dynamic linear's choose_qparams: that was reported as an island
    linear = XNNPACKQuantizer().set_module_type(torch.nn.Linear, dynamic())
    static = XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
    for model, x in ((ViTBlock(), (torch.randn(2, 4, 16),)), (DynamicAndStatic(), (torch.randn(2, 16),))):
        run = capture(model, x, ComposableQuantizer([linear, static]))
        converted = run["converted"].graph_module
        inserted = {n.name for n in qparams_nodes(converted)}
        assert inserted, type(model).__name__
        assert reported_ops(run["converted"]) == real_fp32_ops(converted), type(model).__name__
        for f in island_findings(run["converted"]):
            assert not inserted & set(f["nodes"]) and "choose_qparams" not in f["message"], f["message"]
