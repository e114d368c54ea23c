"""Focus by module, per-pane focus in compare, and show/focus argument checks (one line each)."""

import warnings

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens.examples import example_inputs, export_module, get_model


@pytest.fixture(scope="module")
def tiny():
    return export_module(get_model("tiny").eval(), example_inputs(2))


def in_module(gm, path):
    """Node names whose nn_module_stack passes through submodule `path` — read from torch's own meta."""
    out = []
    for n in gm.graph.nodes:
        if n.target == "_guards_fn":
            continue  # torch's input-guard call copies the first op's module stack: not the module's own
        paths = [p for p, _ in (n.meta.get("nn_module_stack") or {}).values()]
        if any(p == path or p.startswith(path + ".") for p in paths):
            out.append(n.name)
    return out


def test_module_focus_is_the_nodes_inside_that_submodule(tiny):
    ids = pl.focus(tiny, pl.module("stem"), hops=0)
    assert ids == in_module(tiny, "stem") and len(ids) == 4  # conv, bn, relu, max_pool
    block = pl.focus(tiny, pl.module("block"), hops=0)
    assert block == in_module(tiny, "block") and not set(block) & set(ids)


def test_module_scope_narrows_op_names(tiny):
    ops = ["conv2d", "batch_norm", "relu"]
    everywhere = pl.focus(tiny, ops, hops=0)
    in_stem = pl.focus(tiny, [pl.module("stem"), *ops], hops=0)
    assert len(everywhere) == 12  # all four conv-bn-relu groups
    assert in_stem == ["conv2d", "batch_norm", "relu"]
    assert set(in_stem) == set(everywhere) & set(in_module(tiny, "stem"))


def test_a_focus_that_matches_nothing_warns_and_names_the_fix(tiny):
    with pytest.warns(pl.Pt2eLensWarning, match=r"focus 'stem' matches no node.*pl\.module\('stem'\)"):
        assert pl.focus(tiny, "stem", hops=0) == []
    with pytest.warns(pl.Pt2eLensWarning, match="'con2d' matches no node"):
        pl.show(tiny, focus=["con2d", "relu"])
    with pytest.warns(pl.Pt2eLensWarning, match=r"pl\.module\('nope'\) matches no node"):
        pl.show(tiny, focus=pl.module("nope"))


def test_notes_for_unknown_nodes_warn(tiny):
    with pytest.warns(pl.Pt2eLensWarning, match="notes for 'no_such_node' match no node"):
        v = pl.show(tiny, focus="relu", notes={"no_such_node": "?", "relu": "here"})
    assert v.view["notes"] == [{"no_such_node": "?", "relu": "here"}]
    with pytest.warns(pl.Pt2eLensWarning, match="did you mean 'max_pool2d_1'"):
        pl.compare([tiny, tiny], notes=[{}, {"max_pool2d_1x": "typo"}])


def test_a_focus_that_matches_something_does_not_warn(tiny):
    with warnings.catch_warnings():
        warnings.simplefilter("error", pl.Pt2eLensWarning)
        pl.show(tiny, focus=[pl.module("stem"), "conv2d"], hops=0, notes={"conv2d": "stem conv"})


def test_compare_carries_the_focus_to_what_nodes_became():
    ep = torch.export.export(get_model("tiny").eval(), example_inputs())
    pre, post = ep.module(), ep.run_decompositions({}).module()
    with warnings.catch_warnings():
        warnings.simplefilter("error", pl.Pt2eLensWarning)  # batch_norm is only in the first pane: no warning
        v = pl.compare(
            [(pre, "pre"), (post, "post")], focus=[pl.module("stem"), "conv2d", "batch_norm", "relu"], hops=0
        )
    assert v.view["focus"][0] == ["conv2d", "batch_norm", "relu"]
    assert v.view["focus"][1] == ["conv2d", "_native_batch_norm_legit_no_training", "getitem", "relu"]


def test_compare_takes_one_focus_per_pane(tiny):
    v = pl.compare([(tiny, "a"), (tiny, "b")], focus=[["relu"], [pl.module("head_conv")]], hops=0)
    assert v.view["focus"][0] == [n.name for n in tiny.graph.nodes if n.name.startswith("relu")]
    assert v.view["focus"][1] == in_module(tiny, "head_conv")
    whole = pl.compare([(tiny, "a"), (tiny, "b")], focus=[None, ["add"]], hops=0)
    assert whole.view["focus"][0] == [n.name for n in tiny.graph.nodes] and whole.view["focus"][1] == ["add"]


@pytest.mark.parametrize(
    "kwargs, text",
    [
        ({"focus": 123}, "focus must be an op or node name"),
        ({"focus": ["relu", 4]}, "got 4 (a int)"),
        ({"hops": "2"}, "hops must be a whole number"),
        ({"hops": 1.5}, "hops must be a whole number"),
        ({"hops": -1, "focus": "relu"}, "hops must be a whole number"),
        ({"hops": True, "focus": "relu"}, "hops must be a whole number"),
        ({"title": object()}, "title must be a string"),
        ({"notes": "relu"}, "notes must be"),
    ],
)
def test_bad_show_arguments_are_one_line(tiny, kwargs, text):
    for call in (lambda: pl.show(tiny, **kwargs), lambda: pl.compare([tiny, tiny], **kwargs)):
        with pytest.raises(pl.Pt2eLensError) as e:
            call()
        msg = str(e.value)
        assert text in msg and "\n" not in msg and len(msg) < 300
    if "focus" in kwargs or "hops" in kwargs:
        with pytest.raises(pl.Pt2eLensError):
            pl.focus(tiny, kwargs.get("focus", "relu"), kwargs.get("hops", 1))


def test_huge_hops_stops_at_the_graph_diameter(tiny):
    n = len(tiny.graph.nodes)  # no path is longer than the node count
    reachable = pl.focus(tiny, "conv2d", hops=n)
    assert pl.focus(tiny, "conv2d", hops=10**9) == reachable  # returns at once: widening stops when nothing is new
    assert pl.show(tiny, focus="conv2d", hops=10**12).view["focus"] == [reachable]
    assert "stem_0_0_weight" in reachable and "output" in reachable


def test_module_needs_a_name():
    with pytest.raises(pl.Pt2eLensError, match="pl.module"):
        pl.module(3)
    assert repr(pl.module("block.0")) == "pl.module('block.0')"
