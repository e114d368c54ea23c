"""The benchmarks' decoder-only transformer (bench/models.py): causal, and its converted graph grows by the
per-block node count that DECODER_100K is computed from (~100k nodes for the view and capture benchmarks)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pt2e_lens as pl  # noqa: E402
from bench import models  # noqa: E402
from pt2e_lens.examples import xnnpack_quantizer  # noqa: E402

PER_BLOCK, FIXED = 88, 26  # converted nodes of a block and of the rest, as models.DECODER_100K assumes


def converted_nodes(n: int) -> int:
    model, inputs = models.build("decoder", n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(model, inputs, xnnpack_quantizer(), calibration=models.calibration("decoder", 1, inputs))
    return len(run["converted"].snapshot.nodes)


def test_decoder_is_causal():
    model, (ids,) = models.build("decoder", 2)
    with torch.no_grad():
        out = model(ids)
        later = ids.clone()
        later[:, 5:] = (later[:, 5:] + 1) % models.DECODER_VOCAB  # change only tokens 5..7
        out2 = model(later)
    assert out.shape == (ids.shape[0], ids.shape[1], models.DECODER_VOCAB)
    torch.testing.assert_close(out[:, :5], out2[:, :5])  # earlier positions never see later tokens
    assert not torch.allclose(out[:, 5:], out2[:, 5:])


@pytest.mark.parametrize("n", [1, 2])
def test_converted_graph_grows_per_block(n):
    assert converted_nodes(n) == FIXED + PER_BLOCK * n
    assert abs(FIXED + PER_BLOCK * models.DECODER_100K - 100_000) < PER_BLOCK
