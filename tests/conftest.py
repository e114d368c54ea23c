import pytest

from kernel_client import Kernel

SETUP = """
import torch, pt2e_lens as pl
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvReluQuantizer
"""


@pytest.fixture(scope="module")
def kernel():
    k = Kernel()
    assert k.execute(SETUP)["ok"]
    yield k
    k.stop()
