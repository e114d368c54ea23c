"""Findings: each has a model+quantizer that triggers it and one that does not, checked against the graphs."""

import json
from importlib.resources import files

import jsonschema
import pytest
import torch
from _why_models import (
    PerTensorFirstConvQuantizer,
    SelfOverwritingQuantizer,
    UnsignedAddQuantizer,
    export_gm,
    node,
    observer_nodes,
)

import pt2e_lens as pl
from pt2e_lens._torchao import Q_ANNOTATION_KEY, ComposableQuantizer, prepare_pt2e
from pt2e_lens.examples import (
    AddQuantizer,
    ConvQuantizer,
    ConvReluQuantizer,
    calibration_batches,
    example_inputs,
    get_model,
)

SCHEMA = json.loads(files("pt2e_lens").joinpath("schema/view.schema.json").read_text())


def capture(name, quantizer, **kw):
    return pl.capture(export_gm(name), None, quantizer, calibration=calibration_batches(2, 2), **kw)


def of_kind(x, kind):
    return [f for f in pl.snapshot(x).findings if f["kind"] == kind]


@pytest.fixture(scope="module")
def clean():
    """conv → bn → relu with the conv+relu pattern: nothing surprising anywhere."""
    return capture("conv_relu", ConvReluQuantizer())


def test_clean_run_has_no_findings_and_the_table_is_named(clean):
    for stage in clean:
        assert pl.snapshot(stage).findings == [], stage.name
    table = pl.findings(clean)
    assert table.name == "findings" and len(table) == 0


def test_nothing_quantized(clean):
    run = capture("conv_relu", ConvQuantizer(include=lambda n: False))
    prepared = run["prepared"].graph_module
    assert observer_nodes(prepared) == []
    for stage in ("annotated", "prepared", "converted"):
        assert len(of_kind(run[stage], "nothing-quantized")) == 1
    assert not of_kind(run["exported"], "nothing-quantized")  # not quantizing yet is no surprise
    assert not any(of_kind(s, "nothing-quantized") for s in clean)


def test_decomposed_graph_matches_nothing():
    # (no convert: convert_pt2e takes ~30 s on this decomposed graph)
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(2)).decompose("core")
    run.prepare(ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))
    gm = run["prepared"].graph_module
    convs = {n.name for n in gm.graph.nodes if n.target == torch.ops.aten.convolution.default}
    bns = {n.name for n in gm.graph.nodes if "batch_norm" in str(n.target)}
    assert convs and bns
    (found,) = of_kind(run["prepared"], "decomposed")
    assert set(found["nodes"]) == convs | bns
    empty = pl.Run(get_model("conv_relu").eval(), example_inputs(2)).decompose("empty").prepare(ConvReluQuantizer())
    assert not of_kind(empty["prepared"], "decomposed")


def test_fp32_island_between_quantized_ops(clean):
    run = capture("residual", ConvQuantizer())
    gm = run["prepared"].graph_module
    relu = node(gm, "relu")
    assert Q_ANNOTATION_KEY not in relu.meta
    assert relu.args[0].op == "call_module" and any(u.op == "call_module" for u in relu.users)
    for stage in ("prepared", "converted"):
        (found,) = of_kind(run[stage], "fp32-island")
        assert found["nodes"][0] == "relu"
    conv = run["converted"].graph_module
    dq, q = (node(conv, n) for n in of_kind(run["converted"], "fp32-island")[0]["nodes"][1:])
    assert "dequantize" in str(dq.target) and "quantize" in str(q.target)
    assert not any(of_kind(s, "fp32-island") for s in clean)


def test_two_observers_on_one_tensor():
    run = capture("residual", ComposableQuantizer([ConvQuantizer(), UnsignedAddQuantizer()]))
    gm = run["prepared"].graph_module
    on_x = {id(gm.get_submodule(n.target)) for n in observer_nodes(gm) if n.args[0].name == "x"}
    assert len(on_x) == 2
    found = {f["nodes"][0]: f for f in of_kind(run["prepared"], "mismatched-observers")}
    assert set(found) == {"x", "conv2d_1"} and "quant_min -128 vs 0" in found["x"]["message"]
    converted = run["converted"].graph_module
    q_mins = {
        n.args[3]
        for n in converted.graph.nodes
        if "quantize_per_tensor" in str(n.target) and "dequantize" not in str(n.target) and n.args[0].name == "x"
    }
    assert q_mins == {-128, 0}
    assert {f["nodes"][0] for f in of_kind(run["converted"], "mismatched-observers")} == {"x", "conv2d_1"}
    plain = prepare_pt2e(export_gm("residual"), ComposableQuantizer([ConvQuantizer(), UnsignedAddQuantizer()]))
    assert {r[1][0] for r in pl.findings(plain).rows if r[0] == "mismatched-observers"} == {"x", "conv2d_1"}
    same = capture("residual", ComposableQuantizer([ConvQuantizer(), AddQuantizer()]))
    assert not any(of_kind(s, "mismatched-observers") for s in same)


def test_per_tensor_weight_among_per_channel():
    run = capture("residual", PerTensorFirstConvQuantizer())
    gm = run["prepared"].graph_module
    schemes = {
        n.args[0].name: gm.get_submodule(n.target).qscheme for n in observer_nodes(gm) if n.args[0].op == "get_attr"
    }
    assert schemes == {"conv1_weight": torch.per_tensor_affine, "conv2_weight": torch.per_channel_symmetric}
    (found,) = of_kind(run["prepared"], "per-tensor-weight")
    assert found["nodes"] == ["conv2d"]
    assert len(of_kind(run["converted"], "per-tensor-weight")) == 1
    assert not any(of_kind(s, "per-tensor-weight") for s in capture("residual", ConvQuantizer()))


def test_check_problems_reach_the_snapshot_and_the_contract():
    run = pl.Run(export_gm("conv_relu")).prepare(SelfOverwritingQuantizer())
    snap = run["prepared"].snapshot
    assert [f["kind"] for f in snap.findings if f["kind"] == "overwritten"] == ["overwritten"]
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(snap.to_json()))
    ids = {n["id"] for n in snap.nodes}
    assert all(set(f["nodes"]) <= ids for f in snap.findings)
    assert pl.findings(run["prepared"]).rows[0][0] == "overwritten"
