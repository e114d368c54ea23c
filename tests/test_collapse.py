"""Collapsed stages for the panel: module groups on demand, each reply under the cap."""

import pytest

import pt2e_lens as pl
from pt2e_lens.examples import ConvReluQuantizer, calibration_batches
from pt2e_lens.kernel.module_groups import fitted
from pt2e_lens.kernel.panel_views import encoded_size


@pytest.fixture(scope="module")
def snap(tiny_ep):
    return pl.capture(tiny_ep, None, ConvReluQuantizer(), calibration=calibration_batches(1))["prepared"].snapshot


def test_whole_graph_when_it_fits(snap):
    out = fitted(snap, "", 10**7)
    assert out["collapsed"] is False and len(out["view"]["panes"][0]["snapshot"]["nodes"]) == len(snap.nodes)


def test_nested_groups_down_to_what_fits(snap):
    size = {g: fitted(snap, g, 10**7)["bytes"] for g in ("", "block", "block.0")}
    assert size[""] > size["block"] > size["block.0"]  # a group's view holds its sub-groups' nodes and more
    cap = size["block.0"]  # the smallest cap that still shows block.0 whole: everything above it collapses
    top = fitted(snap, "", cap)
    assert top["collapsed"] and top["parent"] is None
    assert sum(g["node_count"] for g in top["groups"]) == sum(1 for n in snap.nodes if n["module_stack"])
    block = fitted(snap, "block", cap)
    assert (
        block["collapsed"] and block["parent"] == "" and [g["group"] for g in block["groups"]] == ["block.0", "block.1"]
    )
    inner = fitted(snap, "block.0", cap)
    assert inner["collapsed"] is False and encoded_size(inner["view"]) <= cap


def test_unknown_and_unsplittable_groups(snap):
    with pytest.raises(ValueError):
        fitted(snap, "nope", 10**7)
    with pytest.raises(OverflowError):
        fitted(snap, "fc", 100)
