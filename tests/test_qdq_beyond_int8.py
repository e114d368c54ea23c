"""q/dq are what an observer's convert() inserted, whatever their names: fp16 casts, a custom int4 op pair;
and the overload (.default vs .tensor) keeps static and dynamic q/dq apart."""

import warnings

import torch
from torch import nn

import pt2e_lens as pl
from pt2e_lens._torchao import QuantizationAnnotation, QuantizationSpec, Quantizer
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model

# -- a custom int4 op pair and an observer whose convert() inserts it (the documented extension point)
_LIB = torch.library.Library("pt2e_lens_test", "DEF")
_LIB.define("quantize_int4(Tensor x, float scale) -> Tensor")
_LIB.define("dequantize_int4(Tensor x, float scale) -> Tensor")
_LIB.impl(
    "quantize_int4", lambda x, s: torch.clamp(torch.round(x / s), -8, 7).to(torch.int8), "CompositeExplicitAutograd"
)
_LIB.impl("dequantize_int4", lambda x, s: x.to(torch.float32) * s, "CompositeExplicitAutograd")


def _observer_base():
    from torchao.quantization.pt2e.observer import ObserverBase

    return ObserverBase


class Int4Observer(_observer_base()):
    def __init__(self, **kwargs) -> None:
        super().__init__(dtype=torch.int8)
        self.register_buffer("amax", torch.tensor(0.0))

    def forward(self, x):
        self.amax.copy_(torch.maximum(self.amax, x.detach().abs().max()))
        return x

    def calculate_qparams(self):
        return torch.clamp(self.amax / 7, min=1e-8), torch.tensor(0)

    def convert(self, model: torch.fx.GraphModule, observer_node: torch.fx.Node) -> None:
        scale = float(self.calculate_qparams()[0])
        graph = model.graph
        with graph.inserting_before(observer_node):
            q = graph.call_function(torch.ops.pt2e_lens_test.quantize_int4.default, (observer_node.args[0], scale))
            dq = graph.call_function(torch.ops.pt2e_lens_test.dequantize_int4.default, (q, scale))
        observer_node.replace_all_uses_with(dq)
        graph.erase_node(observer_node)


class Int4ConvInput(Quantizer):
    """Quantizes each conv2d's input activation to int4 with Int4Observer."""

    def annotate(self, model):
        spec = QuantizationSpec(
            dtype=torch.int8,
            quant_min=-8,
            quant_max=7,
            qscheme=torch.per_tensor_symmetric,
            observer_or_fake_quant_ctr=Int4Observer,
        )
        for n in model.graph.nodes:
            if n.op == "call_function" and n.target == torch.ops.aten.conv2d.default:
                n.meta["quantization_annotation"] = QuantizationAnnotation(
                    input_qspec_map={n.args[0]: spec}, _annotated=True
                )
        return model

    def validate(self, model):
        pass


def _capture(model, inputs, quantizer, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pl.capture(model, inputs, quantizer, calibration=[inputs], **kw)


def _targets(gm: torch.fx.GraphModule, op) -> list[str]:
    return [n.name for n in gm.graph.nodes if n.op == "call_function" and n.target == op]


def test_custom_int4_ops_are_recognised_by_what_the_observer_inserted():
    run = _capture(get_model("conv_relu").eval(), example_inputs(2), Int4ConvInput())
    gm = run["converted"].graph_module
    q_nodes = _targets(gm, torch.ops.pt2e_lens_test.quantize_int4.default)
    dq_nodes = _targets(gm, torch.ops.pt2e_lens_test.dequantize_int4.default)
    assert q_nodes and dq_nodes
    rows = {r[0]: r for r in pl.qdq(run["converted"]).rows}
    assert {n for n in rows if rows[n][1] == "quantize"} == set(q_nodes)
    assert {n for n in rows if rows[n][1] == "dequantize"} == set(dq_nodes)
    assert all(rows[n][2] == "quantize_int4" and rows[n][-1].startswith("activation_post_process") for n in q_nodes)
    snap = run["converted"].snapshot
    assert snap.node[q_nodes[0]]["target_full"] == "pt2e_lens_test.quantize_int4.default"
    assert "q dq conv2d" in pl.sequence(run["converted"])
    assert "quantize_int4" not in pl.sequence(run["converted"])
    assert "nothing-quantized" not in {f["kind"] for f in snap.findings}


def test_fp16_dynamic_linear_is_not_nothing_quantized():
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq

    quantizer = xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())
    quantizer.set_module_type_qconfig(nn.Linear, xiq.get_x86_inductor_linear_dynamic_fp16_config())
    run = _capture(nn.Sequential(nn.Linear(4, 4)).eval(), (torch.randn(2, 4),), quantizer, strict=True)
    gm = run["converted"].graph_module
    casts = _targets(gm, torch.ops.quantized_decomposed.convert_element_type.no_fuse)
    assert len(casts) == 2  # torchao's own expectation (test_linear_dynamic_fp16)
    kinds = {r[0]: (r[1], r[7]) for r in pl.qdq(run["converted"]).rows}
    to_fp16 = next(n.name for n in gm.graph.nodes if n.name in casts and n.args[1] == torch.float16)
    to_fp32 = next(n for n in casts if n != to_fp16)
    assert kinds == {to_fp16: ("quantize", "float16"), to_fp32: ("dequantize", "float32")}
    assert "nothing-quantized" not in {f["kind"] for f in run["converted"].snapshot.findings}


def test_static_and_dynamic_qdq_count_apart():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    q = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_dynamic=True))
    run = _capture(nn.Sequential(nn.Linear(4, 4)).eval(), (torch.randn(2, 4),), q)
    counts = pl.op_counts(run["converted"])
    gm = run["converted"].graph_module
    assert (
        counts["quantize_per_tensor.tensor"]
        == len(_targets(gm, torch.ops.quantized_decomposed.quantize_per_tensor.tensor))
        == 1
    )
    assert counts["quantize_per_tensor"] == len(
        _targets(gm, torch.ops.quantized_decomposed.quantize_per_tensor.default)
    )
    ops = {r[2] for r in pl.qdq(run["converted"]).rows}
    assert "quantize_per_tensor.tensor" in ops and "dequantize_per_tensor.tensor" in ops


def test_sequence_keeps_op_names_whole():
    class Atan2(nn.Module):
        def forward(self, x):
            return torch.atan2(x, x + 1)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.Run(Atan2(), (torch.randn(2, 3),))
    assert pl.sequence(run["exported"]) == "add atan2"  # was "add atan": the counter-stripping cut the op's "2"


def test_a_graph_converted_outside_pt2e_lens_still_finds_int8_qdq():
    """No graph diff to read there: torchao's from_node provenance (or its names) still find every q/dq."""
    from pt2e_lens._torchao import convert_pt2e, prepare_pt2e

    gm = torch.export.export(get_model("conv_relu").eval(), example_inputs(2)).module()
    prepared = prepare_pt2e(gm, ConvQuantizer())
    for b in calibration_batches(2, 2):
        prepared(*b)
    converted = convert_pt2e(prepared)
    expected = {
        n.name
        for n in converted.graph.nodes
        if n.op == "call_function" and getattr(n.target, "namespace", "") == "quantized_decomposed"
    }
    assert {r[0] for r in pl.qdq(converted).rows} == expected


def test_target_full_of_an_op_packet_is_its_qualified_name():
    """Affine observers' convert emits OpOverloadPackets: their full name was pybind11 garbage."""
    import torchao  # noqa: F401  (registers torch.ops.torchao)

    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    graph.output(graph.call_function(torch.ops.aten.relu, (x,)))
    snap = pl.snapshot(torch.fx.GraphModule(nn.Module(), graph))
    relu = next(n for n in snap.nodes if n["op"] == "call_function")
    assert relu["target_full"] == "aten.relu" and relu["target"] == "relu"
