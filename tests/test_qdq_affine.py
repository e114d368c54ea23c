"""torchao's affine observers convert to quantize_affine / dequantize_affine: still q/dq with qparams."""

import torch
from torchao.quantization.granularity import PerAxis, PerTensor
from torchao.quantization.pt2e._affine_quantization import AffineQuantizedMinMaxObserver
from torchao.quantization.pt2e.quantizer import QuantizationSpec, annotate_input_qspec_map, annotate_output_qspec
from torchao.quantization.quant_primitives import MappingType

import pt2e_lens as pl
from pt2e_lens.examples import RuleQuantizer, calibration_batches, example_inputs, get_model
from pt2e_lens.examples.quantizers import CONV2D, find


def affine_spec(granularity):
    ctr = AffineQuantizedMinMaxObserver.with_args(
        mapping_type=MappingType.ASYMMETRIC, target_dtype=torch.int8, granularity=granularity
    )
    return QuantizationSpec(
        dtype=torch.int8, quant_min=-128, quant_max=127, is_dynamic=False, observer_or_fake_quant_ctr=ctr
    )


class AffineConvQuantizer(RuleQuantizer):
    def annotate(self, model):
        for conv in find(model, CONV2D):
            annotate_input_qspec_map(conv, conv.args[0], affine_spec(PerTensor()))
            annotate_input_qspec_map(conv, conv.args[1], affine_spec(PerAxis(0)))
            annotate_output_qspec(conv, affine_spec(PerTensor()))
        return model


def test_affine_qdq_nodes_and_qparams():
    run = pl.capture(
        get_model("conv_relu").eval(), example_inputs(2), AffineConvQuantizer(), calibration=calibration_batches(2, 2)
    )
    gm = run["converted"].graph_module
    real = [n for n in gm.graph.nodes if n.op == "call_function" and "quantize_affine" in str(n.target)]
    rows = pl.snapshot(run["converted"]).qdq
    assert len(rows) == len(real) == 5
    assert all(r["granularity"] == "affine" and r["dtype"] == "int8" for r in rows)
    obs = {o["observes"]: o for o in pl.snapshot(run["calibrated"]).observers}
    x_q = next(r for r in rows if r["kind"] == "quantize" and r["tensor"] == "x")
    assert x_q["scale"] == obs["x"]["scale"]
    weight_dq = next(r for r in rows if r["kind"] == "dequantize" and len(r["scale"]) == 8)
    assert weight_dq["scale"] == obs["conv_weight"]["scale"]
    assert obs["x"]["qscheme"] == "asymmetric PerTensor" and obs["x"]["dtype"] == "int8"
