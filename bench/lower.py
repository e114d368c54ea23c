"""pt2e-lens benchmark: what run.lower("inductor") costs, and what its overlay adds to a display.

    PYTHONPATH=kernel_pkg .venv/bin/python bench/lower.py             # resnet of 4 blocks, 2 repeats (~3 min)
    PYTHONPATH=kernel_pkg .venv/bin/python bench/lower.py --blocks 8 --repeats 3

Prints two ratios, each measured in this one run (medians, the two sides alternating):
  1. run.lower("inductor") ÷ a bare torch.compile + first call of the same converted module, with the same
     Inductor settings (freezing on, caches off, under no_grad)                          goal ≤ 1.10
  2. the lowered stage's display (its View document and MIME bundle, overlay included) ÷ the converted
     stage's display                                                                      goal ≤ 1.10
No assertions: numbers only.
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
if os.path.join(ROOT, "kernel_pkg") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "kernel_pkg"))

import pt2e_lens as pl  # noqa: E402

pl.quiet()
warnings.filterwarnings("ignore")

import torch  # noqa: E402

from bench import models  # noqa: E402
from pt2e_lens.display import mimebundle  # noqa: E402
from pt2e_lens.examples import quantizer_by_name  # noqa: E402
from pt2e_lens.views import graph_view  # noqa: E402


def bare_compile(gm: torch.fx.GraphModule, inputs: tuple) -> float:
    """torch.compile + first call of a copy of the converted module, as a user would lower it by hand."""
    m = copy.deepcopy(gm)
    torch._dynamo.reset()
    t = time.perf_counter()
    with torch._inductor.config.patch({"freezing": True, "force_disable_caches": True}), torch.no_grad():
        torch.compile(m)(*inputs)
    return time.perf_counter() - t


def lens_lower(run: pl.Run) -> float:
    torch._dynamo.reset()
    t = time.perf_counter()
    run.lower("inductor")
    return time.perf_counter() - t


def display_time(stage, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        mimebundle(graph_view(stage))
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--blocks", type=int, default=4, help="resnet blocks (two convs each)")
    p.add_argument("--repeats", type=int, default=2, help="compiles per side")
    a = p.parse_args()
    model, inputs = models.build("resnet", a.blocks)
    run = pl.capture(model, inputs, quantizer_by_name("x86"), calibration=models.calibration("resnet", 2, inputs))
    gm = run["converted"].graph_module
    bare_compile(gm, inputs)  # warm-up, untimed: the first compile of a process pays Inductor's imports and pools
    bare, lens = [], []
    for i in range(a.repeats):  # alternate which side compiles first
        if i % 2 == 0:
            bare.append(bare_compile(gm, inputs))
            lens.append(lens_lower(run))
        else:
            lens.append(lens_lower(run))
            bare.append(bare_compile(gm, inputs))
    b, l_ = statistics.median(bare), statistics.median(lens)
    n = len(run["converted"].snapshot.nodes)
    print(f"model: resnet, {a.blocks} blocks, {n} converted nodes; {pl.backend(run).title}")
    print(
        f"1. run.lower('inductor') {l_:.2f} s ÷ bare torch.compile + first call {b:.2f} s = {l_ / b:.3f}  (goal ≤ 1.10)"
    )
    reps = 20
    display_time(run["converted"], 3)  # warm both (imports, caches)
    display_time(run["lowered"], 3)
    conv, low = [], []
    for _ in range(7):  # alternating rounds: a busy machine's noise falls on both sides
        conv.append(display_time(run["converted"], reps))
        low.append(display_time(run["lowered"], reps))
    c, w = statistics.median(conv), statistics.median(low)
    print(f"2. lowered display {w * 1e3:.1f} ms ÷ converted display {c * 1e3:.1f} ms = {w / c:.3f}  (goal ≤ 1.10)")


if __name__ == "__main__":
    main()
