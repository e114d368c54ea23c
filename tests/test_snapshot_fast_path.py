"""The snapshot builder's and the analyses' fast paths (memos, skipped walks, one-pass link tables) give
byte-identical results to the straightforward code, on real models at every stage of a real capture.

The reference is computed here, at test time, by the plain per-node loop the fast path replaced
(`flat_inputs`, `_source`, `_module_stack`, `role`, `short_name`/`full_name` on every node, no memo), and
by the plain definitions of users/inputs, stage_diff's alignment and focus's picks.
"""

from __future__ import annotations

import importlib

import pytest
import torch
from torch import nn

import pt2e_lens as pl
from pt2e_lens._targets import full_name, short_name
from pt2e_lens.analyses.findings import with_findings
from pt2e_lens.analyses.why_lines import with_why
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model
from pt2e_lens.snapshot import _nodes, build
from pt2e_lens.snapshot._observers import observers as observer_table
from pt2e_lens.snapshot._qdq import qdq as qdq_table
from pt2e_lens.snapshot.inserted import roles_from_provenance

snapshot_pkg = importlib.import_module("pt2e_lens.snapshot")  # `pl.snapshot` the function shadows the attribute


def reference_nodes_and_edges(gm, modules, qdq_roles=None):
    """The straightforward loop: every helper called on every node."""
    nodes, edges = [], []
    for node in gm.graph.nodes:
        meta = node.meta
        shape, dtype = _nodes._shape_dtype(meta.get("val"))
        stack = _nodes._module_stack(meta)
        nodes.append(
            {
                "id": node.name,
                "op": node.op,
                "target": short_name(node.target),
                "target_full": full_name(node.target),
                "role": _nodes.role(node, modules, qdq_roles),
                "module_path": stack[-1][0] if stack else "",
                "module_stack": stack,
                "shape": shape,
                "dtype": dtype,
                "source": _nodes._source(meta.get("stack_trace")),
                "provenance": _nodes.provenance(node),
                "observer": None,
            }
        )
        for pos, src in enumerate(_nodes.flat_inputs(node)):
            edges.append({"src": src.name, "dst": node.name, "arg": pos})
    return nodes, edges


def reference_links(snap):
    users = {n["id"]: [] for n in snap.nodes}
    inputs = {n["id"]: [] for n in snap.nodes}
    for e in snap.edges:
        if e["dst"] not in users[e["src"]]:
            users[e["src"]].append(e["dst"])
        inputs[e["dst"]].append(e["src"])
    return users, inputs


def reference_focus(snap, names, hops):
    users, inputs = reference_links(snap)
    shown = {n["id"] for n in snap.nodes if n["target"] in names or n["id"] in names or n["role"] in names}
    for _ in range(hops):
        shown |= {m for nid in shown for m in users[nid] + inputs[nid]}
    return [n["id"] for n in snap.nodes if n["id"] in shown]


def reference_kept(sa, sb):
    by_id = {n["id"]: n for n in sa.nodes}
    return [
        (n["id"], n["id"]) for n in sb.nodes if n["id"] in by_id and by_id[n["id"]]["target_full"] == n["target_full"]
    ]


class Encoder(nn.Module):
    """Deep module stacks and shared stack traces: what the memos are for."""

    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(*(nn.TransformerEncoderLayer(16, 2, 32, batch_first=True) for _ in range(2)))

    def forward(self, x):
        return self.layers(x)


@pytest.fixture(scope="module")
def runs():
    """Every stage of real captures: the course's conv nets under ConvQuantizer."""
    out = {}
    for name in ("tiny", "residual"):
        out[name] = pl.capture(
            get_model(name).eval(), example_inputs(8), ConvQuantizer(), calibration=calibration_batches(2, 8)
        )
    return out


def _graphs(runs):
    for name, run in runs.items():
        for stage in run:
            yield f"{name}/{stage.name}", stage
    ep = torch.export.export(Encoder().eval(), (torch.randn(2, 5, 16),))
    yield "encoder/graph_module", ep.graph_module
    yield "encoder/module", ep.module()


def _reference_snapshot(x, monkeypatch):
    """The snapshot built with the reference loop and every table walked (no skip for a float graph)."""
    with monkeypatch.context() as m:
        m.setattr(snapshot_pkg, "nodes_and_edges", reference_nodes_and_edges)
        if isinstance(x, torch.fx.GraphModule):
            return with_why(with_findings(build(x)))
        snap = with_findings(build(x.graph_module, stage=x.name, record=x.record), x.record.problems)
        return with_why(snap, x.record.annotators)


def test_snapshot_json_is_byte_identical_to_the_straightforward_build(runs, monkeypatch):
    seen_roles = set()
    for label, x in _graphs(runs):
        fast = pl.snapshot(x) if isinstance(x, torch.fx.GraphModule) else x.snapshot
        ref = _reference_snapshot(x, monkeypatch)
        assert fast.to_json() == ref.to_json(), label
        seen_roles |= {n["role"] for n in fast.nodes}
        gm = x if isinstance(x, torch.fx.GraphModule) else x.graph_module
        modules = dict(gm.named_modules(remove_duplicate=False))
        by_id = {n["id"]: n for n in reference_nodes_and_edges(gm, modules, roles_from_provenance(gm))[0]}
        if not any(n["role"] == "observer" for n in by_id.values()):  # the walk the build skips finds nothing
            assert observer_table(gm, modules, by_id, snapshot_pkg.SpecTable(), None) == [], label
        if not any(n["role"] in ("quantize", "dequantize") for n in by_id.values()):
            assert qdq_table(gm, by_id) == [], label
    # the captures really reached observers and q/dq (else the comparison above proves little)
    assert {"observer", "quantize", "dequantize", "param", "input", "output", "compute"} <= seen_roles


def test_users_and_inputs_match_their_plain_definition(runs):
    for label, x in _graphs(runs):
        snap = pl.snapshot(x)
        users, inputs = reference_links(snap)
        assert snap.users == users, label
        assert snap.inputs == inputs, label


def test_a_node_used_twice_by_one_user_is_listed_once():
    class Square(nn.Module):
        def forward(self, x):
            return x * x + x

    snap = pl.snapshot(torch.export.export(Square(), (torch.randn(3),)))
    assert snap.users == reference_links(snap)[0]
    assert snap.users["x"].count("mul") == 1 and "add" in snap.users["x"]  # mul(x, x): two edges, one user
    assert snap.inputs["mul"] == ["x", "x"]


def test_focus_and_stage_diff_match_their_plain_definition(runs):
    for name, run in runs.items():
        stages = list(run)
        for a, b in zip(stages, stages[1:]):
            sa, sb = a.snapshot, b.snapshot
            assert pl.stage_diff(a, b).kept == reference_kept(sa, sb), f"{name} {a.name}→{b.name}"
        for stage in stages:
            snap = stage.snapshot
            for term in ("conv2d", "relu", "observer", "dequantize"):
                if any(term in (n["target"], n["role"]) for n in snap.nodes):
                    for hops in (0, 1, 2):
                        assert pl.focus(stage, term, hops=hops) == reference_focus(snap, {term}, hops)
