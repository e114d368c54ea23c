"""Ctrl-C or a signal during calibration never corrupts the run silently.

An interrupted `run.calibrate` keeps the batches observed before the interrupt (the one it hit is undone),
re-raises the interrupt itself, and the calibrated stage's `info["batches"]` counts every batch its observers
have seen. The reference is a straight torchao run (`prepare_pt2e` + forward) fed the same batches.
"""

import signal

import pytest
import torch
from torch import nn
from torch.overrides import TorchFunctionMode
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

import pt2e_lens as pl
from pt2e_lens._torchao import is_observer_module
from pt2e_lens.examples import ConvQuantizer


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)

    def forward(self, x):
        return torch.relu(self.conv(x))


def _batches(n: int) -> list[tuple[torch.Tensor]]:
    g = torch.Generator().manual_seed(0)
    return [(torch.randn(2, 3, 8, 8, generator=g) * (i + 1),) for i in range(n)]


B = _batches(6)


@pytest.fixture(scope="module")
def model() -> Net:
    torch.manual_seed(0)
    return Net().eval()


def _stats(gm: torch.fx.GraphModule) -> dict[str, tuple[list, list]]:
    """min/max of every observer (per-tensor and per-channel), read from torchao's observer objects."""
    return {n: (m.min_val.tolist(), m.max_val.tolist()) for n, m in gm.named_modules() if is_observer_module(m)}


def _torchao(model: Net, batches) -> dict[str, tuple[float, float]]:
    """What torchao's own prepare_pt2e observes when fed `batches` straight."""
    prepared = prepare_pt2e(torch.export.export(model, B[0]).module(), ConvQuantizer())
    with torch.no_grad():
        for b in batches:
            prepared(*b)
    return _stats(prepared)


def _run(model: Net) -> pl.Run:
    return pl.Run(model, B[0]).prepare(ConvQuantizer())


def test_ctrl_c_in_the_data_loader_keeps_the_batches_before_it(model):
    run = _run(model).calibrate(B[:2])

    def loader():
        yield from B[2:5]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.calibrate(loader())
    assert run["calibrated"].info["batches"] == 5
    assert _stats(run["calibrated"].graph_module) == _torchao(model, B[:5])
    run.calibrate([B[5]])
    assert run["calibrated"].info["batches"] == 6
    assert _stats(run["calibrated"].graph_module) == _torchao(model, B)


class _Alarm(BaseException):
    """What a SIGALRM handler raises to stop a long step (not an Exception: `except Exception` misses it)."""


class _SignalAtConv(TorchFunctionMode):
    """Sends SIGALRM at the n-th conv (one per forward): that batch's input observer has already seen it."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.left = n

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if "conv2d" in str(func):
            self.left -= 1
            if self.left == 0:
                signal.raise_signal(signal.SIGALRM)
        return func(*args, **(kwargs or {}))


def _raise_alarm(signum, frame):
    raise _Alarm


def test_sigalrm_inside_a_forward_undoes_only_that_batch(model):
    run = _run(model).calibrate(B[:2])
    old = signal.signal(signal.SIGALRM, _raise_alarm)
    mode = _SignalAtConv(3)
    try:
        with mode, pytest.raises(_Alarm):
            run.calibrate(B[2:6])  # B2, B3 observed; B4 is interrupted inside its forward
    finally:
        signal.signal(signal.SIGALRM, old)
    assert mode.left == 0
    assert run["calibrated"].info["batches"] == 4
    assert _stats(run["calibrated"].graph_module) == _torchao(model, B[:4])


def test_sigalrm_inside_a_calibration_callable_keeps_nothing_of_that_call(model):
    run = _run(model).calibrate(B[:2])
    old = signal.signal(signal.SIGALRM, _raise_alarm)
    try:
        with _SignalAtConv(2), pytest.raises(_Alarm):
            run.calibrate(lambda m: [m(*b) for b in B[2:5]])
    finally:
        signal.signal(signal.SIGALRM, old)
    assert run["calibrated"].info["batches"] == 2
    run.calibrate([B[5]])  # goes on from B0, B1: the half-run callable left nothing behind
    assert run["calibrated"].info["batches"] == 3
    assert _stats(run["calibrated"].graph_module) == _torchao(model, [*B[:2], B[5]])


def test_ctrl_c_inside_a_calibration_callable_keeps_nothing_of_that_call(model):
    run = _run(model).calibrate(B[:2])

    def half_way(m):
        m(*B[2])
        m(*B[3])
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.calibrate(half_way)
    assert run["calibrated"].info["batches"] == 2
    run.calibrate([B[5]])
    assert run["calibrated"].info["batches"] == 3
    assert _stats(run["calibrated"].graph_module) == _torchao(model, [*B[:2], B[5]])


def test_batches_count_every_call(model):
    run = _run(model).calibrate(B[:2]).calibrate(B[2:3])
    assert run["calibrated"].info["batches"] == 3
    assert _stats(run["calibrated"].graph_module) == _torchao(model, B[:3])
