"""Cost of pt2e-lens's post_run_cell callback on cells that change no model.

    PYTHONPATH=kernel_pkg python bench/post_run_cell.py

A namespace like a course notebook after a few chapters (an ExportedProgram, a Run with all stages,
a prepared GraphModule, a 2000-node GraphModule and 300 other variables); then `x = 1` cells are
timed with an empty post_run_cell callback and with pt2e-lens loaded. Prints the callback's own
time per cell, the whole cell's time, and their ratio to the empty callback. Goal: ≤ 2 ms a cell.
"""

from __future__ import annotations

import statistics
import time
import warnings

warnings.filterwarnings("ignore")

from IPython.core.interactiveshell import InteractiveShell  # noqa: E402

CELLS = 300
SETUP = """
import torch, pt2e_lens as pl
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvReluQuantizer
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
pl.quiet()
ep = torch.export.export(get_model('tiny').eval(), example_inputs())
run = pl.capture(ep, None, ConvReluQuantizer(), calibration=calibration_batches(2))
prepared = prepare_pt2e(ep.module(), ConvReluQuantizer())
class Deep(torch.nn.Module):
    def forward(self, x):
        for _ in range(2000):
            x = x + 1
        return x
big = torch.fx.symbolic_trace(Deep())
filler = {f"v{i}": list(range(10)) for i in range(300)}
globals().update(filler)
"""


def time_cells(shell, n: int) -> list[float]:
    out = []
    for i in range(n):
        t = time.perf_counter()
        shell.run_cell(f"x = {i}", store_history=False)
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    shell = InteractiveShell.instance()
    assert shell.run_cell(SETUP).success
    n_nodes = len(shell.user_ns["big"].graph.nodes)

    def empty(result):
        pass

    shell.events.register("post_run_cell", empty)
    time_cells(shell, 30)
    base = time_cells(shell, CELLS)
    shell.events.unregister("post_run_cell", empty)

    shell.run_cell("%load_ext pt2e_lens")
    from pt2e_lens.kernel.extension import _STATE

    tracker, _backend, callback = _STATE[shell]
    time_cells(shell, 30)
    lens = time_cells(shell, CELLS)

    calls = []
    for _ in range(CELLS):
        t = time.perf_counter()
        callback(None)
        calls.append(time.perf_counter() - t)

    ms = lambda xs: statistics.median(xs) * 1e3  # noqa: E731
    print(f"namespace: {len(shell.user_ns)} names, models {sorted(tracker.entries)} (big: {n_nodes} nodes)")
    print(
        f"callback alone   median {ms(calls):.3f} ms  p95 {sorted(calls)[int(CELLS * 0.95)] * 1e3:.3f} ms  (goal ≤ 2 ms)"
    )
    print(f"cell, empty cb   median {ms(base):.3f} ms")
    print(f"cell, pt2e-lens  median {ms(lens):.3f} ms")
    print(f"ratio pt2e-lens / empty callback: {ms(lens) / ms(base):.2f}x")


if __name__ == "__main__":
    main()
