"""Course chapter M03-6 (partial quantization, ComposableQuantizer, annotation order)."""

import copy

import pytest
import torch
from _helpers import export_module
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.quantization.pt2e.quantizer import ComposableQuantizer, QuantizationAnnotation, get_module_name_filter

import pt2e_lens as pl
from pt2e_lens._torchao import Q_ANNOTATION_KEY, is_observer_module
from pt2e_lens.examples import (
    AddQuantizer,
    ConvQuantizer,
    ConvReluQuantizer,
    RuleQuantizer,
    calibration_batches,
    example_inputs,
    get_model,
)
from pt2e_lens.examples.quantizers import CONV2D, find


def torchao_observer_nodes(gm):
    mods = dict(gm.named_modules())
    return [n for n in gm.graph.nodes if n.op == "call_module" and is_observer_module(mods[n.target])]


def torchao_qdq_nodes(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function" and "quantize" in str(n.target)]


@pytest.mark.parametrize(
    "scope, n_obs, n_qdq",
    [(None, 12, 20), ("stem", 3, 5), ("block", 6, 10), ("head_conv", 3, 5)],
)
def test_partial_quantization_table(scope, n_obs, n_qdq):
    include = get_module_name_filter(scope) if scope else None
    run = pl.capture(
        get_model("tiny").eval(),
        example_inputs(8),
        ConvQuantizer(include),
        calibration=calibration_batches(n=4, batch_size=16),
        dynamic_batch=True,
    )
    prepared, converted = run["prepared"].graph_module, run["converted"].graph_module
    assert len(torchao_observer_nodes(prepared)) == n_obs
    assert len(pl.observers(run["prepared"])) == n_obs  # one instance per node: no sharing here
    assert len(torchao_qdq_nodes(converted)) == n_qdq == len(pl.qdq(run["converted"]))


def test_only_stem_sequence_line():
    run = pl.capture(
        get_model("tiny").eval(),
        example_inputs(8),
        ConvQuantizer(get_module_name_filter("stem")),
        calibration=calibration_batches(n=2, batch_size=8),
    )
    line = pl.sequence(run["converted"])
    assert line == (
        "dq q dq conv2d q dq relu max_pool2d conv2d relu conv2d add relu max_pool2d conv2d relu "
        "adaptive_avg_pool2d flatten linear"
    )
    assert "q" not in line.split("relu", 1)[1].split()


def test_sequence_matches_plain_torchao_pipeline():
    gm = export_module("tiny", 8)
    prepared = prepare_pt2e(copy.deepcopy(gm), ConvQuantizer(get_module_name_filter("stem")))
    for b in calibration_batches(2, 8):
        prepared(*b)
    converted = convert_pt2e(prepared)

    def course_sequence(g):
        def short(n):
            t = str(n.target)
            return "dq" if "dequantize" in t else "q" if "quantize" in t else n.name.rstrip("_0123456789")

        return " ".join(short(n) for n in g.graph.nodes if n.op == "call_function")

    assert pl.sequence(converted) == course_sequence(converted)


def test_residual_add_shares_existing_observers():
    gm = export_module("residual", 4)
    only_conv = prepare_pt2e(copy.deepcopy(gm), ConvQuantizer())
    composed = prepare_pt2e(copy.deepcopy(gm), ComposableQuantizer([ConvQuantizer(), AddQuantizer()]))
    assert len(torchao_observer_nodes(only_conv)) == 6
    assert len(torchao_observer_nodes(composed)) == 7
    assert len(pl.observers(only_conv)) == 6 and len(pl.observers(composed)) == 7

    add = next(n for n in composed.graph.nodes if n.target == torch.ops.aten.add.Tensor)
    from_conv, from_x = add.args[0], add.args[1]
    conv = next(n for n in composed.graph.nodes if n.target == CONV2D)
    assert from_x is conv.args[0] and from_conv.args[0].name == "conv2d_1"

    snap = pl.snapshot(composed)
    by_node = {n: o for o in snap.observers for n in o["nodes"]}
    x_obs = by_node[from_x.name]
    served = [s["at"] for s in x_obs["serves"]]
    assert {"edge": ["x", "conv2d"]} in served and {"edge": ["x", "add"]} in served
    assert x_obs["implicit"] is True
    conv_out = by_node[from_conv.name]
    assert {"node": "conv2d_1"} in [s["at"] for s in conv_out["serves"]]
    assert {"edge": ["conv2d_1", "add"]} in [s["at"] for s in conv_out["serves"]]
    new = set(by_node) - {n.name for n in torchao_observer_nodes(only_conv)}
    assert new == {next(iter(add.users)).name}  # the add's output observer is the only new one


def test_recorded_and_inferred_observer_maps_agree():
    run = pl.Run(get_model("residual").eval(), example_inputs(4))
    run.prepare(ComposableQuantizer([ConvQuantizer(), AddQuantizer()]))
    recorded = pl.snapshot(run["prepared"]).observers
    inferred = pl.snapshot(run["prepared"].graph_module).observers
    key = lambda obs: sorted((o["names"][0], str(s["at"])) for o in obs for s in o["serves"])  # noqa: E731
    assert key(recorded) == key(inferred)


def test_blame_names_the_sub_quantizer():
    run = pl.Run(get_model("residual").eval(), example_inputs(4))
    run.prepare(ComposableQuantizer([ConvQuantizer(), AddQuantizer()]))
    table = pl.annotations(run["annotated"])
    who = dict(zip(table.column("node"), table.column("quantizer")))
    assert who["conv2d"] == who["conv2d_1"] == "ConvQuantizer"
    assert who["add"] == "AddQuantizer"


class MeddlingQuantizer(RuleQuantizer):
    def annotate(self, model):
        for conv in find(model, CONV2D):
            conv.meta[Q_ANNOTATION_KEY] = QuantizationAnnotation()
        return model


def test_changed_annotations_error_plain_and_through_run():
    gm = export_module("residual", 4)
    with pytest.raises(RuntimeError, match="Quantizer MeddlingQuantizer has changed annotations on node conv2d"):
        prepare_pt2e(copy.deepcopy(gm), ComposableQuantizer([ConvQuantizer(), MeddlingQuantizer()]))
    run = pl.Run(gm)
    with pytest.raises(RuntimeError) as info:  # the chapter catches RuntimeError: it still does
        run.prepare(ComposableQuantizer([ConvQuantizer(), MeddlingQuantizer()]))
    assert isinstance(info.value, pl.Pt2eLensError)
    msg = str(info.value)
    assert msg.startswith("Quantizer MeddlingQuantizer has changed annotations on node conv2d")  # torchao's text
    assert "MeddlingQuantizer changed the annotation of node conv2d that ConvQuantizer wrote" in msg
    assert "reorder" in msg and "\n" not in msg
    assert run.stages == ["exported"]  # earlier stages survive


def observer_before_relu(gm):
    relu = next(n for n in gm.graph.nodes if n.target == torch.ops.aten.relu.default)
    return relu.args[0].op == "call_module"


def test_annotation_order_experiment():
    gm = export_module("conv_relu", 4)
    big_first = pl.Run(gm).prepare(ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))["prepared"]
    small_first = pl.Run(gm).prepare(ComposableQuantizer([ConvQuantizer(), ConvReluQuantizer()]))["prepared"]
    assert not observer_before_relu(big_first.graph_module)
    assert observer_before_relu(small_first.graph_module)
    big, small = pl.annotations(big_first), pl.annotations(small_first)
    assert dict(zip(big.column("node"), big.column("quantizer"))) == {
        "conv2d": "ConvReluQuantizer",
        "relu": "ConvReluQuantizer",
    }
    assert dict(zip(small.column("node"), small.column("quantizer"))) == {"conv2d": "ConvQuantizer"}
    # the later, larger pattern found conv2d already claimed: that is why the order matters
    assert dict(zip(small.column("node"), small.column("skipped_by"))) == {"conv2d": "ConvReluQuantizer"}
