"""Ctrl-C during run.train: the interrupted call is undone (the weights are the last trained stage's), the
interrupt is re-raised, and info["steps"] counts every step the weights took over all train() calls."""

import warnings

import pytest
import torch
from _torchao_models import SingleConv2dModule
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl


def _run():
    torch.manual_seed(0)
    model = SingleConv2dModule(with_bn=True).train()  # conv → batch norm: the QAT pattern, small
    x = (torch.randn(4, 3, 8, 8, generator=torch.Generator().manual_seed(1)),)
    quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True, is_qat=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pl.Run(model, x).prepare_qat(quantizer)


def _batches(n: int) -> list:
    gen = torch.Generator().manual_seed(2)
    return [(torch.randn(4, 3, 8, 8, generator=gen), torch.randn(4, 6, 9, 9, generator=gen)) for _ in range(n)]


def _mse(out, target):
    return torch.nn.functional.mse_loss(out, target)


def _interrupting(after: int):
    """mse_loss that raises KeyboardInterrupt on its call number `after` (0-based): after that many steps."""
    calls = {"n": 0}

    def loss(out, target):
        if calls["n"] == after:
            raise KeyboardInterrupt
        calls["n"] += 1
        return _mse(out, target)

    return loss


def _state(run) -> dict:
    return {k: v.clone() for k, v in run["trained"].graph_module.state_dict().items()}


def test_an_interrupted_train_call_is_undone_and_the_steps_are_counted():
    b = _batches(5)
    ce = _mse
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = _run().train(b[:2], loss=ce)
        with pytest.raises(KeyboardInterrupt):
            ours.train(b[2:], loss=_interrupting(2))  # two steps taken, the third interrupted
        assert ours["trained"].info == {"steps": 2}
        ours.train(b[4:], loss=ce)
        plain = _run().train(b[:2], loss=ce).train(b[4:], loss=ce)  # the same without the interrupted call
    assert ours["trained"].info == {"steps": 3} == plain["trained"].info
    mine, theirs = _state(ours), _state(plain)
    assert mine.keys() == theirs.keys()
    assert all(torch.equal(mine[k], theirs[k]) for k in mine)


def test_an_interrupted_training_callable_is_undone():
    b = _batches(3)
    ce = _mse

    def steps_then_interrupt(m):
        opt = torch.optim.SGD([p for p in m.parameters() if p.requires_grad], lr=0.5)
        for x, t in b:
            opt.zero_grad()
            ce(m(x), t).backward()
            opt.step()
        raise KeyboardInterrupt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = _run().train(b[:1], loss=ce)
        before = _state(ours)
        with pytest.raises(KeyboardInterrupt):
            ours.train(steps_then_interrupt)
        assert ours["trained"].info == {"steps": 1}
        assert all(torch.equal(before[k], v) for k, v in _state(ours).items())
        ours.train(b[1:2], loss=ce)  # goes on from the trained stage, not from the interrupted module
        plain = _run().train(b[:1], loss=ce).train(b[1:2], loss=ce)
    assert ours["trained"].info == {"steps": 2} == plain["trained"].info
    mine, theirs = _state(ours), _state(plain)
    assert all(torch.equal(mine[k], theirs[k]) for k in mine)
