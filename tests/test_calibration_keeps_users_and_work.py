"""Calibration writes only into pt2e-lens's own copies, and one bad batch does not throw away the good ones."""

import warnings

import pytest
import torch
from _fingerprint import fingerprint
from torch import nn

import pt2e_lens as pl
from pt2e_lens._torchao import is_observer_module
from pt2e_lens.examples import ConvQuantizer


class TrainModeNet(nn.Module):
    """Left in train mode: BatchNorm updates running stats and num_batches_tracked; an EMA buffer too."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.register_buffer("ema", torch.zeros(4))

    def forward(self, x):
        y = self.bn(self.conv(x))
        self.ema.mul_(0.5).add_(0.5 * y.mean((0, 2, 3)))
        return torch.relu(y)


def _batches(n, batch=2, channels=3):
    g = torch.Generator().manual_seed(0)
    return [(torch.randn(batch, channels, 8, 8, generator=g),) for _ in range(n)]


def _net() -> TrainModeNet:
    torch.manual_seed(0)
    return TrainModeNet().eval()


def _run(**kw) -> pl.Run:
    return pl.Run(_net(), _batches(1)[0], **kw).prepare(ConvQuantizer())


def _observer_stats(gm: torch.fx.GraphModule) -> dict[str, tuple[float, float]]:
    """min/max of every observer module, read straight from torchao's observer objects."""
    return {
        name: (float(m.min_val), float(m.max_val))
        for name, m in gm.named_modules()
        if is_observer_module(m) and hasattr(m, "min_val") and m.min_val.numel() == 1
    }


def test_train_mode_model_comes_back_bit_identical():
    model = TrainModeNet()  # not .eval(): the case that used to change the user's statistics
    before = fingerprint(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.capture(model, _batches(1)[0], ConvQuantizer(), calibration=_batches(4))
    assert fingerprint(model) == before
    assert model.training and int(model.bn.num_batches_tracked) == 0
    assert run.stages[-1] == "converted"


def test_users_program_state_dict_unchanged_by_run_steps():
    model = TrainModeNet()
    ep = torch.export.export(model, _batches(1)[0])
    before_ep, before_model = fingerprint(ep), fingerprint(model)
    run = pl.Run(ep).prepare(ConvQuantizer()).calibrate(_batches(3))
    assert fingerprint(ep) == before_ep and fingerprint(model) == before_model
    # the stages own their tensors too: calibrating did not write into the exported stage's program
    exported = run["exported"].exported_program
    assert all(torch.equal(exported.state_dict[k], v) for k, v in ep.state_dict.items())


def test_one_bad_batch_keeps_the_good_ones_and_names_itself():
    run = _run(dynamic_batch=True)
    good = _batches(5)
    bad = _batches(1, channels=4)[0]  # 4 channels where the model takes 3: not a batch-size problem
    with pytest.raises(pl.Pt2eLensError) as e:
        run.calibrate([*good, bad, *_batches(2)])
    msg = str(e.value)
    assert "\n" not in msg and "batch 5" in msg and "channels differs (4 vs 3)" in msg
    assert "dynamic_batch" not in msg  # the cause is the channels, not the batch size
    assert "5 batch(es) before it are observed and kept" in msg
    # what was observed is kept: the calibrated stage equals calibrating on the good batches alone
    reference = _run(dynamic_batch=True).calibrate(good)
    kept = _observer_stats(run["calibrated"].graph_module)
    assert kept and kept == _observer_stats(reference["calibrated"].graph_module)
    # and the user can go on: more batches, then convert
    run.calibrate(_batches(2)).convert()
    assert run.stages[-2:] == ["calibrated", "converted"] and pl.qdq(run["converted"]).rows


def test_a_batch_that_fails_inside_forward_is_undone():
    """A batch that fails half way (the input observer already saw it, then conv2d raises) leaves no trace."""
    batches = _batches(3)
    run = _run()
    huge = (batches[0][0].double() * 1e6,)  # the observer records it, conv2d then refuses float64
    with pytest.raises(pl.Pt2eLensError) as e:
        run.calibrate([*batches, huge])
    assert "batch 3" in str(e.value) and "RuntimeError" in str(e.value)
    assert _observer_stats(run["calibrated"].graph_module) == _observer_stats(
        _run().calibrate(batches)["calibrated"].graph_module
    )


def test_capture_hands_back_the_run_so_far():
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.capture(TrainModeNet().eval(), _batches(1)[0], ConvQuantizer(), calibration=[*_batches(3), (1.5,)])
    assert "batch 3" in str(e.value) and "e.run" in str(e.value)
    run = e.value.run
    assert run.stages[-1] == "calibrated" and run["calibrated"].info["batches"] == 3
    run.convert()
    assert "converted" in run


def test_static_batch_size_still_says_dynamic_batch():
    run = _run()
    with pytest.raises(pl.Pt2eLensError) as e:
        run.calibrate(_batches(2, batch=5))
    msg = str(e.value)
    assert "batch 0" in msg and "the batch size differs (5 vs 2)" in msg and "dynamic_batch=True" in msg
    assert "nothing was observed yet" in msg
