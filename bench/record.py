"""pl.record's cost: the same user script with and without `with pl.record() as rec:` around it.

    PYTHONPATH=kernel_pkg .venv/bin/python bench/record.py [--repeats 5] [--batches 16]

The script is what a user writes (functions imported by name at the top): export → ep.module() →
prepare_pt2e with torchao's XNNPACKQuantizer → a calibration loop of --batches batches → convert_pt2e, on a
conv net of a few MB. Both variants run alternately in this one process; each figure is the median of the
repeats. Prints the ratio recorded ÷ plain (goal ≤ 1.10) for the block alone, and, separately, what reading
`rec.run` afterwards adds (the Runs — pt2e-lens's own prepare and convert of its copies — and their snapshots
are made on first read, after the user's code has its results). No assertions: numbers only.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if os.path.join(ROOT, "kernel_pkg") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "kernel_pkg"))

import pt2e_lens as pl  # noqa: E402

pl.quiet()
warnings.filterwarnings("ignore")

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e  # noqa: E402
from torchao.testing.pt2e._xnnpack_quantizer import (  # noqa: E402
    XNNPACKQuantizer,
    get_symmetric_quantization_config,
)


class Net(nn.Module):
    """6 conv-bn-relu (64 channels) and a 1024 → 1024 → 10 head on 16×16 images: about 1.2 M parameters (5 MB fp32)."""

    def __init__(self) -> None:
        super().__init__()
        layers: list[nn.Module] = [nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU()]
        for i in range(5):
            layers += [nn.Conv2d(64, 64, 3, padding=1, stride=2 if i in (1, 3) else 1), nn.BatchNorm2d(64), nn.ReLU()]
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 4 * 4, 1024), nn.ReLU(), nn.Linear(1024, 10))

    def forward(self, x):
        return self.head(self.features(x))


def user_script(model: nn.Module, example: tuple, batches: list) -> torch.fx.GraphModule:
    """The user's own pipeline, unchanged."""
    ep = torch.export.export(model, example)
    quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
    prepared = prepare_pt2e(ep.module(), quantizer)
    with torch.no_grad():
        for batch in batches:
            prepared(*batch)
    return convert_pt2e(prepared)


SIDE: list[float] = []  # seconds pt2e-lens spent beside the user's calls (the last entry counting)
INSIDE: list[float] = []  # of those, inside each recorded block (reading rec.run afterwards not included)


def recorded(model, example, batches):
    SIDE.append(0.0)
    with pl.record() as rec:
        out = user_script(model, example, batches)
    INSIDE.append(SIDE[-1])
    return out, rec


def _timed_side() -> None:
    """Time pt2e-lens's own work inside the block directly: the wall-clock ratio is noisy on a busy machine."""
    from pt2e_lens.capture.record import Recording

    side = Recording._side

    def timed_side(self, fn, *args):
        t = time.perf_counter()
        try:
            return side(self, fn, *args)
        finally:
            SIDE[-1] += time.perf_counter() - t

    Recording._side = timed_side  # type: ignore[method-assign]


def timed(fn, *args):
    gc.collect()
    t = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t, out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--batches", type=int, default=16)
    a = p.parse_args()
    torch.manual_seed(0)
    model = Net().eval()
    example = (torch.randn(4, 3, 16, 16),)
    batches = [(torch.randn(4, 3, 16, 16),) for _ in range(a.batches)]
    size = sum(t.numel() * t.element_size() for t in model.state_dict().values()) / 1e6
    _timed_side()
    user_script(model, example, batches)  # warm-up: first-call costs belong to neither variant
    _ = recorded(model, example, batches)[1].run.snapshot
    plain, rec, read = [], [], []
    for i in range(a.repeats):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for which in order:
            if which == 0:
                plain.append(timed(user_script, model, example, batches)[0])
            else:
                t, (_, r) = timed(recorded, model, example, batches)
                rec.append(t)
                read.append(timed(lambda r=r: [s.snapshot for s in r.run])[0])
    p_med, r_med, read_med = statistics.median(plain), statistics.median(rec), statistics.median(read)
    print(f"model {size:.1f} MB, {a.batches} calibration batches, {a.repeats} repeats (medians)")
    print(f"plain script            {p_med:.3f} s")
    print(f"inside pl.record        {r_med:.3f} s")
    print(f"ratio recorded / plain  {r_med / p_med:.2f}   (goal <= 1.10)")
    side = statistics.median(INSIDE[1:])  # the first is the warm-up
    print(f"pt2e-lens's own work inside the block {side:.3f} s: (plain + it) / plain = {(p_med + side) / p_med:.3f}")
    print(
        f"then rec.run made and every stage's snapshot read: {read_med:.3f} s ({(r_med + read_med) / p_med:.2f} x plain in all)"
    )


if __name__ == "__main__":
    main()
