import os

import pytest
import torch
from torchao.quantization.pt2e.quantizer import ComposableQuantizer

import pt2e_lens as pl
from pt2e_lens.examples import AddQuantizer, ConvQuantizer, calibration_batches, example_inputs, get_model

pl.quiet()
# no progress lines in what the tests read (kernels and subprocesses inherit it); tests/test_progress.py turns it on
os.environ.setdefault("PT2E_LENS_PROGRESS", "0")


@pytest.fixture(scope="session")
def tiny_ep():
    return torch.export.export(get_model("tiny").eval(), example_inputs())


@pytest.fixture()
def tiny_gm(tiny_ep):
    return tiny_ep.module()


@pytest.fixture(scope="session")
def composable_run():
    """Every stage, decomposed included, of the tiny model under a ComposableQuantizer (read, never changed)."""
    return pl.capture(
        get_model("tiny").eval(),
        example_inputs(8),
        ComposableQuantizer([ConvQuantizer(), AddQuantizer()]),
        calibration=calibration_batches(2, 8),
        decompose={},
    )
