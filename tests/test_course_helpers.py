"""The course's helper names work on pt2e-lens and agree with torchao's graphs."""

import copy

from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

import pt2e_lens as pl
from pt2e_lens.examples import (
    ConvQuantizer,
    calibration_batches,
    draw,
    draw_stages,
    example_inputs,
    export_module,
    get_model,
    observer_nodes,
    qdq_nodes,
    short,
    table,
)


def test_helpers_on_the_residual_model():
    gm = export_module(get_model("residual").eval(), example_inputs(4))
    prepared = prepare_pt2e(copy.deepcopy(gm), ConvQuantizer())
    real_obs = [
        n.name for n in prepared.graph.nodes if n.op == "call_module" and n.target.startswith("activation_post_process")
    ]
    assert observer_nodes(prepared) == real_obs and len(real_obs) == 6
    for b in calibration_batches(1, 4):
        prepared(*b)
    converted = convert_pt2e(prepared)
    real_qdq = [n.name for n in converted.graph.nodes if n.op == "call_function" and "quantize" in str(n.target)]
    assert qdq_nodes(converted) == real_qdq
    conv = next(n for n in gm.graph.nodes if n.op == "call_function")
    assert short(conv.target) == "conv2d"


def test_draw_and_table_return_displayable_objects():
    gm = export_module(get_model("conv_relu").eval(), example_inputs(2))
    w = draw(gm, focus=["conv2d", "relu"], hops=0, title="t")
    assert w.view["focus"] == [["conv2d", "relu"]] and w.view["title"] == "t"
    w2 = draw_stages([(gm, "a"), (gm, "b")], focus="relu", hops=0, notes=[{}, {"relu": "here"}])
    assert [p["label"] for p in w2.view["panes"]] == ["a", "b"] and w2.view["notes"][1] == {"relu": "here"}
    t = table([["all", 12, 20]], ["config", "observers", "q/dq"])
    assert t.rows == [("all", 12, 20)] and "observers" in t.to_markdown()
    assert isinstance(t, pl.Table)
