"""A stage over the panel's reply cap goes out in parts: an outline of the real graph, then the nodes the
panel picks (the panel groups them: src/core/groups.ts is the one grouping rule)."""

import pytest

import pt2e_lens as pl
from pt2e_lens.examples import ConvReluQuantizer, calibration_batches
from pt2e_lens.kernel.panel_views import encoded_size, stage_view
from pt2e_lens.kernel.parts import fitted


@pytest.fixture(scope="module")
def stage(tiny_ep):
    return pl.capture(tiny_ep, None, ConvReluQuantizer(), calibration=calibration_batches(1))["prepared"]


def test_whole_graph_when_it_fits(stage):
    snap = stage.snapshot
    out = fitted(snap, None, "", encoded_size(stage_view(snap)))
    assert out["collapsed"] is False and len(out["view"]["panes"][0]["snapshot"]["nodes"]) == len(snap.nodes)


def test_over_the_cap_the_outline_is_the_real_graph(stage):
    snap = stage.snapshot
    out = fitted(snap, None, "", encoded_size(stage_view(snap)) - 1)
    assert out["collapsed"] and out["view"] is None and out["total_nodes"] == len(snap.nodes)
    ol = out["outline"]
    graph = list(stage.graph_module.graph.nodes)
    assert [n[0] for n in ol["nodes"]] == [n.name for n in graph]
    position = {n: i for i, n in enumerate(graph)}
    real_edges = {(position[a], position[n]) for n in graph for a in n.all_input_nodes}
    assert set(map(tuple, ol["edges"])) == real_edges
    stacks = {tuple(map(tuple, ol["stacks"][i])) for _, _, i in ol["nodes"]}
    assert len(stacks) == len(ol["stacks"])  # interned: each stack once
    assert [ol["nodes"][i][0] for i in ol["annotated"]] == sorted(
        (a["node"] for a in snap.annotations), key=[n.name for n in graph].index
    )


def test_the_nodes_the_panel_picks_come_with_their_neighbours(stage):
    snap = stage.snapshot
    block = [i for i, n in enumerate(snap.nodes) if n["module_path"].startswith("block.0")]
    ranges = [[i, i + 1] for i in block]
    whole = encoded_size(stage_view(snap))
    out = fitted(snap, ranges, "block.0", whole)
    assert out["collapsed"] is False
    part = out["view"]["panes"][0]["snapshot"]
    inner = {snap.nodes[i]["id"] for i in block}
    boundary = set(part["meta"]["partial"]["boundary"])
    assert {n["id"] for n in part["nodes"]} == inner | boundary and not inner & boundary
    graph = {n.name: n for n in stage.graph_module.graph.nodes}
    neighbours = {a.name for i in inner for a in graph[i].all_input_nodes} | {
        u.name for i in inner for u in graph[i].users
    }
    assert boundary == neighbours - inner
    small = fitted(snap, ranges, "block.0", 100)
    assert small["collapsed"] and "outline" not in small and small["total_nodes"] == len(part["nodes"])


@pytest.mark.parametrize("ranges", [[[0, 0]], [[-1, 2]], [[0, 10**6]], [["a", 2]], [[0, 1, 2]], [3], []])
def test_bad_ranges_say_what_to_give(stage, ranges):
    with pytest.raises(ValueError, match="nodes"):
        fitted(stage.snapshot, ranges, "x", 10**7)
