"""A large lent weight's whole pages go to the temp file straight from the user's memory (capture/_lent.py, O_DIRECT),
its unaligned first and last bytes kept in memory: a write anywhere in it (first byte, a middle page, last byte) is
seen and undone in the user's tensor, the alias keeps what was written, and an unwritten weight is the user's again."""

import copy
import warnings

import numpy as np
import pytest
import torch
from torch import nn
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens.capture import _lent


def _weights() -> list[nn.Parameter]:
    """Storages of a few MB whose data starts off a page boundary (a view 5 floats in), one starting on it."""
    torch.manual_seed(0)
    base = torch.randn(3 * (1 << 18) + 7)
    return [nn.Parameter(base[5:].view(-1)), nn.Parameter(torch.randn(1 << 19)), nn.Parameter(torch.randn(300))]


def _loan(weights: list[nn.Parameter]) -> tuple[_lent.Loan, list[torch.Tensor]]:
    loan = _lent.Loan({id(w) for w in weights})
    aliases = [loan.alias(w) for w in weights]
    loan.keep()
    if not loan._pages:
        pytest.skip("the temp directory's file system takes no O_DIRECT writes: every byte goes through the buffer")
    return loan, aliases


WHERE = {"first byte": lambda n: 0, "a middle page": lambda n: n // 2, "last byte": lambda n: n - 1}


@pytest.mark.parametrize("where", list(WHERE))
def test_a_write_anywhere_in_a_paged_weight_is_undone_for_the_user_and_kept_by_the_alias(monkeypatch, where):
    monkeypatch.setattr(_lent, "IN_MEMORY", 0)
    weights = _weights()
    before = [w.detach().clone() for w in weights]
    loan, aliases = _loan(weights)
    assert len(loan._pages) == 2  # the small one through the buffer
    raw = aliases[0].detach().numpy().view(np.uint8)  # numpy: no version counter moves
    at = WHERE[where](raw.size)
    raw[at] ^= 0xFF
    module = nn.Module()
    for i, a in enumerate(aliases):
        module.register_parameter(f"w{i}", a)
    loan.settle([module])
    assert all(torch.equal(w, b) for w, b in zip(weights, before))  # bit-identical again
    written = module.w0.detach().numpy().view(np.uint8)
    expected = before[0].numpy().view(np.uint8).copy()
    expected[at] ^= 0xFF
    assert np.array_equal(written, expected)  # what was written, and nothing else
    assert module.w0.untyped_storage().data_ptr() != weights[0].untyped_storage().data_ptr()  # its own copy
    assert module.w1 is weights[1] and module.w2 is weights[2]  # not written: the user's own again


def test_paged_weights_nothing_wrote_come_back_as_the_users_own(monkeypatch):
    monkeypatch.setattr(_lent, "IN_MEMORY", 0)
    weights = _weights()
    loan, aliases = _loan(weights)
    module = nn.Module()
    for i, a in enumerate(aliases):
        module.register_parameter(f"w{i}", a)
    loan.settle([module])
    assert [module.w0, module.w1, module.w2] == weights


class Doubling(XNNPACKQuantizer):
    """Doubles the big linear's weight through numpy while annotating."""

    def annotate(self, model):
        model.get_parameter("big.weight").detach().numpy()[...] *= 2
        return super().annotate(model)


class Big(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.big, self.out = nn.Linear(1024, 1024), nn.Linear(1024, 8)

    def forward(self, x):
        return self.out(torch.relu(self.big(x)))


def test_a_quantizer_writing_a_paged_weight_leaves_the_users_model_and_matches_torchao(monkeypatch):
    monkeypatch.setattr(_lent, "IN_MEMORY", 0)
    torch.manual_seed(0)
    model, inputs = Big().eval(), (torch.randn(2, 1024),)
    before = {k: v.detach().clone() for k, v in model.state_dict().items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = prepare_pt2e(
            torch.export.export(copy.deepcopy(model), inputs).module(),
            Doubling().set_global(get_symmetric_quantization_config()),
        ).state_dict()
    run = pl.Run(model, inputs).prepare(Doubling().set_global(get_symmetric_quantization_config()))
    after = model.state_dict()
    assert all(torch.equal(after[k], before[k]) for k in before)
    prepared = run["prepared"].own_graph().state_dict()
    assert torch.equal(prepared["big.weight"], before["big.weight"] * 2)
    assert all(torch.equal(prepared[k], theirs[k]) for k in theirs)  # what torchao's own prepared module holds
