"""pl.compare_orders and pl.blame: the M03-6 order experiment, checked against plain prepare_pt2e graphs."""

import pytest
import torch
from _why_models import export_gm, node, observer_nodes
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

import pt2e_lens as pl
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import Q_ANNOTATION_KEY, ComposableQuantizer
from pt2e_lens.examples import AddQuantizer, ConvQuantizer, ConvReluQuantizer, example_inputs, get_model


def observer_between(gm, producer: str, consumer: str) -> bool:
    arg = node(gm, consumer).args[0]
    return arg.op == "call_module" and arg.args[0].name == producer


def test_course_order_experiment_sentence_comes_from_the_graphs():
    model = get_model("conv_relu").eval()
    result = pl.compare_orders(model, [ConvReluQuantizer(), ConvQuantizer()], example_inputs(2))
    gm = export_gm("conv_relu")
    big = prepare_pt2e(private_copy(gm), ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))
    small = prepare_pt2e(private_copy(gm), ComposableQuantizer([ConvQuantizer(), ConvReluQuantizer()]))
    assert observer_between(small, "conv2d", "relu") and not observer_between(big, "conv2d", "relu")
    assert result.name == "orders" and result.title == result.summary
    assert (
        "order matters: an observer between conv2d and relu appears when the small pattern (ConvQuantizer"
        in result.summary
    )
    assert result.orders == ["ConvReluQuantizer → ConvQuantizer", "ConvQuantizer → ConvReluQuantizer"]
    changes = {(r[1], r[2]) for r in result.rows}
    assert ("observer added", "conv2d (output)") in changes and ("observer removed", "relu (output)") in changes
    moved = {r[2]: r[3] for r in result.rows if r[1] == "annotation moved"}
    assert moved["conv2d"].startswith("ConvReluQuantizer → ConvQuantizer")
    assert len(observer_nodes(big)) == len(observer_nodes(small))  # same count, different places


def test_the_sentence_follows_the_facts_not_the_input_order():
    flipped = pl.compare_orders(export_gm("conv_relu"), [ConvQuantizer(), ConvReluQuantizer()])
    assert "an observer between conv2d and relu appears when the small pattern (ConvQuantizer" in flipped.summary
    assert "an observer after relu appears when the large pattern (ConvReluQuantizer" in flipped.summary


def test_independent_quantizers_do_not_depend_on_order():
    result = pl.compare_orders(export_gm("residual"), [ConvQuantizer(), AddQuantizer()])
    assert result.summary.startswith("order does not matter") and len(result) == 0


def test_explicit_orders_and_bad_input():
    gm = export_gm("conv_relu")
    result = pl.compare_orders(gm, [[ConvReluQuantizer(), ConvQuantizer()], [ConvQuantizer(), ConvReluQuantizer()]])
    assert len(result.orders) == 2
    assert not any(Q_ANNOTATION_KEY in n.meta for n in gm.graph.nodes)  # the user's graph is untouched
    with pytest.raises(pl.Pt2eLensError, match="at least two"):
        pl.compare_orders(gm, [ConvQuantizer()])
    with pytest.raises(pl.Pt2eLensError, match="list of lists"):
        pl.compare_orders(gm, [ConvQuantizer()] * 5)
    with pytest.raises(pl.Pt2eLensError, match="Quantizer"):
        pl.compare_orders(gm, [ConvQuantizer(), "conv"])
    with pytest.raises(pl.Pt2eLensError, match="example_inputs"):
        pl.compare_orders(get_model("conv_relu"), [ConvQuantizer(), ConvReluQuantizer()])


def test_blame_and_skipped_by_match_the_annotations():
    run = pl.Run(export_gm("conv_relu")).prepare(ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))
    table = pl.blame(run)
    assert table.name == "blame"
    rows = {r[0]: r[1:] for r in table.rows}
    annotated = run["annotated"].graph_module
    for name in ("conv2d", "relu"):
        assert node(annotated, name).meta[Q_ANNOTATION_KEY]._annotated
        assert rows[name] == ("ConvReluQuantizer", "ConvQuantizer")
    assert set(rows) == {n.name for n in annotated.graph.nodes if Q_ANNOTATION_KEY in n.meta}
    again = pl.blame(
        get_model("conv_relu").eval(), ComposableQuantizer([ConvQuantizer(), ConvReluQuantizer()]), example_inputs(2)
    )
    assert {r[0]: r[1:] for r in again.rows} == {"conv2d": ("ConvQuantizer", "ConvReluQuantizer")}


def test_counts_in_the_sentence_come_from_the_prepared_graphs():
    gm = export_gm("tiny")
    small = prepare_pt2e(private_copy(gm), ComposableQuantizer([ConvQuantizer(), ConvReluQuantizer()]))
    relus = [n for n in small.graph.nodes if n.target == torch.ops.aten.relu.default]
    between = sum(
        1 for r in relus if r.args[0].op == "call_module" and r.args[0].args[0].target == torch.ops.aten.conv2d.default
    )
    assert between > 1
    result = pl.compare_orders(gm, [ConvReluQuantizer(), ConvQuantizer(), AddQuantizer()])
    assert len(result.orders) == 6
    assert f"an observer between conv2d and relu appears ({between}×) when the small pattern" in result.summary
