import pytest
import torch

import pt2e_lens as pl
from pt2e_lens.examples import example_inputs, get_model

pl.quiet()


@pytest.fixture(scope="session")
def tiny_ep():
    return torch.export.export(get_model("tiny").eval(), example_inputs())


@pytest.fixture()
def tiny_gm(tiny_ep):
    return tiny_ep.module()
