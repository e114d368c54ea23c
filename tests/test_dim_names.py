"""Symbolic sizes show the user's Dim names (issue 15.9): `batch×3×32×32`, not `s77×3×32×32`."""

import re

import torch

import pt2e_lens as pl
from pt2e_lens.examples import example_inputs, get_model


def test_a_dynamic_batch_reads_batch_in_every_shape():
    model = get_model("tiny").eval()
    batch = torch.export.Dim("batch", min=1, max=1 << 16)
    ep = torch.export.export(model, example_inputs(2), dynamic_shapes=({0: batch},))
    x = next(n for n in ep.graph.nodes if n.op == "placeholder" and n.name == "x")
    assert str(x.meta["val"].shape[0]).startswith("s")  # torch's own name for it
    snap = pl.snapshot(ep)
    shapes = {n["id"]: n["shape"] for n in snap.data["nodes"] if n["shape"]}
    assert shapes["x"] == ["batch", 3, 32, 32]
    symbolic = [d for s in shapes.values() for d in s if isinstance(d, str)]
    assert symbolic and all("batch" in d for d in symbolic)
    assert not any(re.search(r"\bs\d+\b", d) for d in symbolic)


def test_a_size_without_a_dim_name_keeps_torchs_text():
    ep = torch.export.export(get_model("tiny").eval(), example_inputs(2), dynamic_shapes=({0: torch.export.Dim.AUTO},))
    snap = pl.snapshot(ep)
    x = next(n for n in snap.data["nodes"] if n["id"] == "x")
    assert isinstance(x["shape"][0], str) and x["shape"][1:] == [3, 32, 32]
