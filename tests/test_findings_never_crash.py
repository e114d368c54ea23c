"""A finding never takes a capture down: mixed static + dynamic quantization of one tensor captures fine,
and an analysis that raises becomes a finding that names it."""

import importlib
import warnings

import torch
from _torchao_models import ConvLinearWPermute

import pt2e_lens as pl

findings_module = importlib.import_module(
    "pt2e_lens.analyses.findings"
)  # the package re-exports a function of that name
snapshot_module = importlib.import_module("pt2e_lens.snapshot")


def _composable_dynamic_then_static():
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    from pt2e_lens._torchao import ComposableQuantizer

    dynamic = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=False, is_dynamic=True))
    static = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
    return ComposableQuantizer([dynamic, static])


def test_mixed_static_and_dynamic_quantization_of_one_tensor_captures():
    """torchao's test_composable_quantizer_linear_conv: permute's output is quantized statically and dynamically."""
    x = (torch.randn(2, 3, 4, 4),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(ConvLinearWPermute().eval(), x, _composable_dynamic_then_static(), calibration=[x])
    snap = run["converted"].snapshot
    kinds = {f["kind"] for f in snap.findings}
    assert "analysis-failed" not in kinds
    # both quantizations of permute are listed, the dynamic one with its .tensor overload and no fixed scale
    rows = [r for r in pl.qdq(run["converted"]).rows if r[9] == "permute" and r[1] == "quantize"]
    assert sorted(r[2] for r in rows) == ["quantize_per_tensor", "quantize_per_tensor.tensor"]
    assert next(r for r in rows if r[2].endswith(".tensor"))[4] is None
    pl.show(run)._repr_mimebundle_()  # the views render too


def test_a_failing_analysis_becomes_a_finding(monkeypatch):
    def fp32_islands(snap):  # a rule with a bug
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(findings_module, "fp32_islands", fp32_islands)
    from pt2e_lens.examples import ConvQuantizer, example_inputs, get_model

    run = pl.capture(get_model("conv_relu").eval(), example_inputs(2), ConvQuantizer())
    failed = [f for f in run["converted"].snapshot.findings if f["kind"] == "analysis-failed"]
    assert len(failed) == 1
    assert "fp32_islands" in failed[0]["message"] and "ZeroDivisionError: boom" in failed[0]["message"]
    assert pl.qdq(run["converted"]).rows  # everything else is still there


def test_a_failing_snapshot_table_becomes_a_finding(monkeypatch):
    def broken(*args):
        raise KeyError("unknown observer")

    monkeypatch.setattr(snapshot_module, "observers", broken)
    from pt2e_lens.examples import ConvQuantizer, example_inputs, get_model

    run = pl.capture(get_model("conv_relu").eval(), example_inputs(2), ConvQuantizer())
    snap = run["prepared"].snapshot
    assert snap.observers == []
    assert any(f["kind"] == "analysis-failed" and "snapshot.observers" in f["message"] for f in snap.findings)
