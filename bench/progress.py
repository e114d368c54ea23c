"""What the progress bars cost the calls they report on (goal ≤ 1.02×).

    PYTHONPATH=kernel_pkg .venv/bin/python bench/progress.py            # ~2 min on a quiet machine

In one process, alternating: pl.capture (64 calibration batches) and pl.sensitivity on a conv net, with the
bar drawn from the first step (a terminal, to an in-memory stream) ÷ with it off. Prints the medians and the
ratios. No assertions: numbers only.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "kernel_pkg"))

import torch  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from pt2e_lens.examples import ConvQuantizer  # noqa: E402

REPEATS = 5  # each call this many times with the bar and without, alternating which goes first


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _net() -> torch.nn.Module:
    layers: list[torch.nn.Module] = []
    for i in range(8):
        layers += [torch.nn.Conv2d(3 if i == 0 else 16, 16, 3, padding=1), torch.nn.ReLU()]
    return torch.nn.Sequential(*layers).eval()


def _timed(on: bool, work) -> float:
    pl.progress(on)
    saved, sys.stderr = sys.stderr, _Tty()
    try:
        t = time.process_time()
        work()
        return time.process_time() - t
    finally:
        sys.stderr = saved
        pl.progress(None)


def main() -> None:
    warnings.simplefilter("ignore")
    torch.manual_seed(0)
    batches = [(torch.randn(2, 3, 16, 16),) for _ in range(64)]
    model = _net()
    pl.progress(False)
    run = pl.capture(model, batches[0], ConvQuantizer(), calibration=batches[:4])
    pl.progress(None)
    calls = {
        "pl.capture (64 batches)": lambda: pl.capture(model, batches[0], ConvQuantizer(), calibration=batches),
        "pl.sensitivity": lambda: pl.sensitivity(run, batches[:4]),
    }
    for name, work in calls.items():
        times: dict[bool, list[float]] = {True: [], False: []}
        for i in range(REPEATS):
            for on in (True, False) if i % 2 else (False, True):
                times[on].append(_timed(on, work))
        on, off = statistics.median(times[True]), statistics.median(times[False])
        print(f"{name}: bar {on:.3f} s CPU, off {off:.3f} s CPU, ratio {on / off:.3f} (goal ≤ 1.02)")


if __name__ == "__main__":
    main()
