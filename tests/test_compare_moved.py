"""`pl.compare` of two prepared captures of one model pairs observers by what they serve, not by name (course M03-6
part C, issue 18.5): the observer that moved between the two orders of a ComposableQuantizer is marked in both
panes, with one line saying what moved. Judged by where torchao's own prepare_pt2e put each observer."""

import jsonschema
import pytest
from _why_models import export_gm, node
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

import pt2e_lens as pl
from pt2e_lens import i18n
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import ComposableQuantizer
from pt2e_lens.examples import AddQuantizer, ConvQuantizer, ConvReluQuantizer
from pt2e_lens.schema import VIEW_SCHEMA

BIG, SMALL = "big first", "small first"


@pytest.fixture(scope="module")
def graphs():
    """torchao's real prepared graphs of conv → relu, the big pattern first and the small one first."""
    gm = export_gm("conv_relu")
    big = prepare_pt2e(private_copy(gm), ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))
    small = prepare_pt2e(private_copy(gm), ComposableQuantizer([ConvQuantizer(), ConvReluQuantizer()]))
    return gm, big, small


def output_observer(gm, producer: str) -> str | None:
    users = [u for u in node(gm, producer).users if u.op == "call_module"]
    return users[0].name if users else None


def test_the_observer_that_moved_is_marked_in_both_panes(graphs):
    _, big, small = graphs
    after_relu, between = output_observer(big, "relu"), output_observer(small, "conv2d")
    # torchao: the big pattern observes relu's output only, the small one conv2d's output (between conv2d and relu)
    assert after_relu and between and output_observer(big, "conv2d") is None and output_observer(small, "relu") is None
    assert after_relu == between  # the same name for different tensors: why matching by name marked nothing
    view = pl.compare([(big, BIG), (small, SMALL)]).view
    jsonschema.validate(view, VIEW_SCHEMA)
    d = view["diffs"][0]
    assert after_relu in d["removed"] and between in d["added"]
    assert [after_relu, between] not in d["kept"]
    assert set(view["notes"][0]) == {after_relu} and set(view["notes"][1]) == {between}
    assert "relu" in view["notes"][0][after_relu] and SMALL in view["notes"][0][after_relu]
    assert "conv2d" in view["notes"][1][between] and BIG in view["notes"][1][between]
    # the observers on conv2d's inputs serve the same edges in both: paired, not marked
    for edge_src in ("x", "conv_weight"):
        obs_big = next(a for a in node(big, "conv2d").all_input_nodes if a.args and a.args[0].name == edge_src)
        obs_small = next(a for a in node(small, "conv2d").all_input_nodes if a.args and a.args[0].name == edge_src)
        assert [obs_big.name, obs_small.name] in d["kept"]
    line = view["title"]
    assert line == view["tables"][0]["title"]
    assert BIG in line and SMALL in line and "relu" in line and "conv2d" in line
    assert [r[:2] for r in view["tables"][0]["rows"]] == [[BIG, after_relu], [SMALL, between]]


def test_the_line_and_notes_in_zh_tw(graphs):
    _, big, small = graphs
    with i18n.using("zh-TW"):
        view = pl.compare([(big, "大 pattern 先"), (small, "小 pattern 先")], title="兩種順序").view
    assert view["title"] == "兩種順序"  # the caller's title stays; the line is the table's title
    assert view["tables"][0]["title"].startswith("observer 換了位置：")
    assert "relu 的輸出" in view["tables"][0]["title"] and "conv2d 的輸出" in view["tables"][0]["title"]
    assert all("那裡沒有" in text for pane in view["notes"] for text in pane.values())


def test_two_runs_of_the_same_model(graphs):
    gm = graphs[0]
    orders = ([ConvReluQuantizer(), ConvQuantizer()], [ConvQuantizer(), ConvReluQuantizer()])
    runs = [pl.Run(gm).prepare(ComposableQuantizer(order)) for order in orders]
    view = pl.compare(runs).view
    assert [p["label"] for p in view["panes"]] == ["prepared #1", "prepared #2"]
    d = view["diffs"][0]
    assert d["removed"] == [output_observer(runs[0]["prepared"].graph_module, "relu")]
    assert d["added"] == [output_observer(runs[1]["prepared"].graph_module, "conv2d")]
    assert "prepared #1" in view["title"] and "prepared #2" in view["title"]


def test_an_added_observer_under_shifted_names_is_the_only_mark():
    """Conv only vs Conv + Add (M03-6 part B): the one new observer is add's output; x's observer now also serves
    x → add and is the same observer, whatever the numbering."""
    gm = export_gm("residual")
    only_conv = prepare_pt2e(private_copy(gm), ConvQuantizer())
    composed = prepare_pt2e(private_copy(gm), ComposableQuantizer([ConvQuantizer(), AddQuantizer()]))
    view = pl.compare([(only_conv, "conv"), (composed, "conv + add")]).view
    d = view["diffs"][0]
    observers = {n.name for n in composed.graph.nodes if n.op == "call_module" and n.name != "_guards_fn"}
    assert [n for n in d["added"] if n in observers] == [output_observer(composed, "add")]
    assert view["title"] == "only conv + add observes the output of add"  # nothing moved: one more observer
    assert not [n for n in d["removed"] if n.startswith("activation_post_process")]


def test_exported_beside_prepared_marks_no_move(graphs):
    gm, _, small = graphs
    view = pl.compare([(gm, "exported"), (small, "prepared")]).view
    assert view["title"] is None and view["tables"] == [] and view["notes"] == [{}, {}]
    observers = {n.name for n in small.graph.nodes if n.op == "call_module" and n.name != "_guards_fn"}
    assert observers <= set(view["diffs"][0]["added"])  # every observer is simply new
