"""The course's helper names work on pt2e-lens and agree with torchao's graphs."""

import copy

import pytest
import torch
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

import pt2e_lens as pl
from pt2e_lens.display import table_html
from pt2e_lens.examples import (
    ConvQuantizer,
    calibration_batches,
    diff_ops,
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


def test_export_module_takes_calibration_batches_of_another_size():
    """The chapter exports with example_inputs(8) and calibrates with batches of 16."""
    gm = export_module(get_model("tiny").eval(), example_inputs(8))
    prepared = prepare_pt2e(copy.deepcopy(gm), ConvQuantizer())
    for b in calibration_batches(n=2, batch_size=16):
        prepared(*b)
    converted = convert_pt2e(prepared)
    assert converted(*example_inputs(3)).shape == (3, 10)
    static = export_module(get_model("tiny").eval(), example_inputs(8), dynamic_batch=False)
    with pytest.raises(Exception, match="Guard failed|size"):
        static(*calibration_batches(1, 16)[0])


def test_run_on_a_graph_with_dynamic_batch_works_or_says_what_to_do():
    model = get_model("conv_relu").eval()
    dynamic = export_module(model, example_inputs(4))
    run = pl.Run(dynamic, dynamic_batch=True).prepare(ConvQuantizer()).calibrate(calibration_batches(2, 16))
    assert run.stages[-1] == "calibrated"
    static_gm = torch.export.export(model, example_inputs(4)).module()
    static_ep = torch.export.export(model, example_inputs(4))
    for graph in (static_gm, static_ep):
        with pytest.raises(pl.Pt2eLensError) as e:
            pl.Run(graph, dynamic_batch=True)
        msg = str(e.value)
        assert "fixed batch size of 4" in msg and "pl.Run(model, example_inputs, dynamic_batch=True)" in msg
        assert "\n" not in msg


def test_diff_ops_takes_the_chapters_tablefmt():
    ep = torch.export.export(get_model("tiny").eval(), example_inputs())
    pre, post = ep.module(), ep.run_decompositions({}).module()
    html = diff_ops(pre, post, "gm_pre", "gm_post", tablefmt="html")
    assert isinstance(html, pl.Table) and html.rows == pl.diff_ops(pre, post, "gm_pre", "gm_post").rows
    assert "<td>_native_batch_norm_legit_no_training<" in table_html(html.to_dict())  # the whole cell
    assert table(html) is html
    assert diff_ops(pre, post, tablefmt="github").startswith("**ops: a → b**")
    with pytest.raises(pl.Pt2eLensError, match="tablefmt must be one of"):
        diff_ops(pre, post, tablefmt="latex")


def test_the_chapters_imports_come_from_one_place():
    """Every name the chapters import from their common.pt2e is torchao's own object."""
    from torchao.quantization.pt2e import quantize_pt2e
    from torchao.quantization.pt2e import quantizer as tq
    from torchao.quantization.pt2e.quantizer.quantizer import Q_ANNOTATION_KEY

    import pt2e_lens.examples as ex

    assert ex.ANNOTATION_KEY == Q_ANNOTATION_KEY == "quantization_annotation"
    assert ex.QuantizationAnnotation is tq.QuantizationAnnotation and ex.ComposableQuantizer is tq.ComposableQuantizer
    assert ex.get_module_name_filter is tq.get_module_name_filter and ex.Quantizer is tq.Quantizer
    assert ex.prepare_pt2e is quantize_pt2e.prepare_pt2e and ex.convert_pt2e is quantize_pt2e.convert_pt2e
    assert ex.annotate_input_qspec_map is tq.annotate_input_qspec_map
    gm = export_module(get_model("conv_relu").eval(), example_inputs(2))
    [conv] = ex.find(gm, torch.ops.aten.conv2d.default)
    assert not ex.done(conv)
    ex.ConvQuantizer().annotate(gm)
    assert ex.done(conv) and ex.done(*ex.find(gm, torch.ops.aten.relu.default), conv)
