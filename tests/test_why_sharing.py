"""pl.sharing: groups checked against the observer instances torchao put in the prepared graph."""

import pytest
from _why_models import (
    NoImplicitAddQuantizer,
    SharedAddQuantizer,
    UnsignedAddQuantizer,
    export_gm,
    instance_serving,
    node,
)
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

import pt2e_lens as pl
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import Q_ANNOTATION_KEY, ComposableQuantizer
from pt2e_lens.examples import AddQuantizer, ConvQuantizer, get_model


@pytest.fixture(scope="module")
def residual():
    return export_gm("residual")


def prepared(gm, *quantizers):
    return pl.Run(gm).prepare(ComposableQuantizer([ConvQuantizer(), *quantizers]))["prepared"]


def rows(table):
    return [dict(zip(table.columns, r)) for r in table.rows]


def assert_groups_match_torchao(table, gm):
    """Every member row is served by the instance of its group's observer; different groups, different instances."""
    by_group = {}
    for r in rows(table):
        inst = instance_serving(gm, r["member"])
        assert inst is not None, r
        assert inst is gm.get_submodule(r["observer"].split(", ")[0]), r
        by_group.setdefault(r["group"], set()).add(id(inst))
    assert all(len(ids) == 1 for ids in by_group.values())
    assert len({next(iter(ids)) for ids in by_group.values()}) == len(by_group)


def test_implicit_sharing_of_the_course_residual(residual):
    stage = prepared(residual, AddQuantizer())
    table = pl.sharing(stage)
    assert table.name == "sharing"
    members = [r for r in rows(table) if not r["why"].startswith("not merged")]
    assert_groups_match_torchao(
        type(table)("sharing", table.columns, [tuple(r.values()) for r in members]), stage.graph_module
    )
    why = {r["member"]: r["why"] for r in members}
    assert why["x→add"].startswith("implicit: same tensor x as x→conv2d")
    assert why["conv2d_1→add"].startswith("implicit: same tensor conv2d_1 as conv2d_1 (output)")
    gm = stage.graph_module
    assert instance_serving(gm, "x→add") is instance_serving(gm, "x→conv2d")
    assert not any(r["why"].startswith("not merged") for r in rows(table))
    # one row per served key, one group per observer instance torchao created
    assert len(members) == sum(len(o["serves"]) for o in stage.snapshot.observers)
    assert len({r["group"] for r in members}) == len(
        {
            id(gm.get_submodule(n.target))
            for n in gm.graph.nodes
            if n.op == "call_module" and "activation_post_process" in n.target
        }
    )


def test_blocked_merge_names_the_attribute(residual):
    stage = prepared(residual, UnsignedAddQuantizer())
    ann = node(stage.graph_module, "add").meta[Q_ANNOTATION_KEY]
    add_min = ann.input_qspec_map[node(stage.graph_module, "x")].quant_min
    conv_min = (
        node(stage.graph_module, "conv2d")
        .meta[Q_ANNOTATION_KEY]
        .input_qspec_map[node(stage.graph_module, "x")]
        .quant_min
    )
    blocked = {r["member"]: r["why"] for r in rows(pl.sharing(stage)) if r["why"].startswith("not merged")}
    gm = stage.graph_module
    assert instance_serving(gm, "x→add") is not instance_serving(gm, "x→conv2d")
    assert f"quant_min {conv_min} vs {add_min}" in blocked["x→conv2d"]
    assert "x→add" in blocked["x→conv2d"]


def test_allow_implicit_sharing_false_is_named(residual):
    stage = prepared(residual, NoImplicitAddQuantizer())
    gm = stage.graph_module
    assert node(gm, "add").meta[Q_ANNOTATION_KEY].allow_implicit_sharing is False
    # conv2d's edge still allows it, so x→add joins x→conv2d; the add edge no longer joins conv2d_1's output
    assert instance_serving(gm, "x→add") is instance_serving(gm, "x→conv2d")
    assert instance_serving(gm, "conv2d_1→add") is not instance_serving(gm, "conv2d_1 (output)")
    table = rows(pl.sharing(stage))
    blocked = {r["member"]: r["why"] for r in table if r["why"].startswith("not merged")}
    group = next(r["group"] for r in table if r["member"] == "conv2d_1 (output)")
    assert blocked == {
        "conv2d_1→add": f"not merged with conv2d_1 (output) ({group}): allow_implicit_sharing=False on add"
    }
    assert next(r["why"] for r in table if r["member"] == "x→add").startswith("implicit: same tensor x")


def test_explicit_shared_spec(residual):
    stage = prepared(residual, SharedAddQuantizer())
    gm = stage.graph_module
    why = {r["member"]: r["why"] for r in rows(pl.sharing(stage))}
    first, second = (a.name for a in node(gm, "add").meta[Q_ANNOTATION_KEY].input_qspec_map)
    assert why[f"{second}→add"] == f"explicit: SharedQuantizationSpec → {first}→add"
    assert why["add (output)"] == f"explicit: SharedQuantizationSpec → {first}→add"
    assert (
        instance_serving(gm, f"{second}→add")
        is instance_serving(gm, f"{first}→add")
        is instance_serving(gm, "add (output)")
    )


def test_plain_prepare_pt2e_graph_gives_the_same_explanation(residual):
    q = ComposableQuantizer([ConvQuantizer(), UnsignedAddQuantizer()])
    plain = prepare_pt2e(private_copy(residual), q)
    via_run = pl.sharing(pl.Run(residual).prepare(ComposableQuantizer([ConvQuantizer(), UnsignedAddQuantizer()])))
    direct = pl.sharing(plain)
    assert sorted((r[3], r[5]) for r in direct.rows) == sorted((r[3], r[5]) for r in via_run.rows)
    members = [r for r in direct.rows if not r[5].startswith("not merged")]
    assert_groups_match_torchao(pl.Table("sharing", direct.columns, members), plain)


def test_bad_input_is_one_line():
    with pytest.raises(pl.Pt2eLensError, match="export it first"):
        pl.sharing(get_model("conv_relu"))
    with pytest.raises(pl.Pt2eLensError, match="prepare"):
        pl.sharing(pl.Run(export_gm("conv_relu")))
