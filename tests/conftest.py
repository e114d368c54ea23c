import os
import sys
from pathlib import Path

import pytest
import torch
from torchao.quantization.pt2e.quantizer import ComposableQuantizer

import pt2e_lens as pl
from pt2e_lens.examples import AddQuantizer, ConvQuantizer, calibration_batches, example_inputs, get_model

pl.quiet()
# no progress lines in what the tests read (kernels and subprocesses inherit it); tests/test_progress.py turns it on
os.environ.setdefault("PT2E_LENS_PROGRESS", "0")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _tiers import FULL_ONLY  # noqa: E402

try:
    from hypothesis import settings

    # property tests: 150 examples each in the full run (CI: no example database to keep between runs; before, 150
    # to 200 per test, hard-coded), 25 in the fast tier (scripts/test.sh --fast), the same 25 each time
    settings.register_profile("ci", settings(max_examples=150, database=None, print_blob=True))
    settings.register_profile("fast", settings(max_examples=25, derandomize=True))
    settings.load_profile(os.environ.get("PT2E_LENS_HYPOTHESIS", "ci"))
except ImportError:  # hypothesis is in the test extra; without it those tests are skipped by their own import
    pass


def pytest_collection_modifyitems(items):
    """Each test of a FULL_ONLY file carries the markers of what it uses (tests/_tiers.py): the fast tier leaves
    it out by them."""
    for item in items:
        for name in FULL_ONLY.get(item.path.name, ()):
            item.add_marker(getattr(pytest.mark, name))


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
