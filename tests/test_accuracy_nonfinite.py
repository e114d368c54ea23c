"""pl.accuracy with non-finite SQNRs: a tensor that is all zero in both models has SQNR 0/0 = NaN. NaN (and
±inf) rows sort after every finite one, so the worst real node leads; their cells read "—" / "∞"."""

import math
import warnings

import pytest
import torch
from torch import nn

import pt2e_lens as pl
from pt2e_lens.examples import ConvQuantizer


class WithDeadBranch(nn.Module):
    """Two convs; `dead` is relu(-|y|): zero everywhere, in the float and in the quantized model."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x):
        y = self.conv1(x)
        dead = torch.relu(-torch.abs(y))
        return self.conv2(torch.relu(y)) + dead


@pytest.fixture(scope="module")
def table():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    batches = [(torch.randn(2, 3, 8, 8, generator=gen),) for _ in range(2)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(WithDeadBranch().eval(), batches[0], ConvQuantizer(), calibration=batches)
        return pl.accuracy(run, batches)


def test_nan_rows_sort_after_every_finite_row(table):
    sqnr = table.column("sqnr_db")
    nan_rows = [i for i, v in enumerate(sqnr) if v is not None and math.isnan(v)]
    finite = [v for v in sqnr if v is not None and math.isfinite(v)]
    assert nan_rows, "the dead branch must give a NaN SQNR (0/0), or this test proves nothing"
    assert len(finite) >= 3
    assert sqnr[: len(finite)] == sorted(finite)  # the finite ones lead, worst first
    assert min(nan_rows) >= len(finite)
    assert sqnr[0] == min(finite)


def test_non_finite_cells_read_as_the_viewer_draws_them(table):
    lines = table.to_text().splitlines()
    nan_node = next(r[0] for r in table.rows if r[2] is not None and math.isnan(r[2]))
    line = next(ln for ln in lines if ln.startswith(nan_node + " "))
    assert "—" in line and "nan" not in line.lower().replace(nan_node.lower(), "")
    assert table.to_dict()["rows"][[r[0] for r in table.rows].index(nan_node)][2] == "NaN"  # the contract's string
