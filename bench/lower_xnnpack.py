"""Cost of `lower("xnnpack")` against a bare ExecuTorch lowering of the same converted module.

    PYTHONPATH=kernel_pkg .venv/bin/python bench/lower_xnnpack.py [--repeats 3]

Prints one ratio, measured in this one run (medians, alternating order after one warm-up of each):
  pt2e_lens.backends.xnnpack.lower(converted, inputs)  ÷  torch.export.export(converted, inputs) +
  to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])                     goal ≤ 1.10
on the course's `tiny` model quantized with torchao's XNNPACKQuantizer (static per-channel). No assertions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if os.path.join(ROOT, "kernel_pkg") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "kernel_pkg"))

import torch  # noqa: E402

import pt2e_lens as pl  # noqa: E402

pl.quiet()
warnings.filterwarnings("ignore")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    from pt2e_lens.backends import xnnpack
    from pt2e_lens.examples import calibration_batches, example_inputs, get_model

    quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
    inputs = example_inputs(2)
    run = pl.capture(get_model("tiny").eval(), inputs, quantizer, calibration=calibration_batches(2, 2))
    converted = run["converted"].graph_module

    def bare() -> None:
        ep = torch.export.export(converted, inputs)
        to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])

    def ours() -> None:
        xnnpack.lower(converted, inputs)

    times: dict[str, list[float]] = {"bare": [], "ours": []}
    bare(), ours()  # warm-up: ExecuTorch's first lowering in a process pays for its imports and registrations
    for i in range(args.repeats):
        for name, fn in (("bare", bare), ("ours", ours)) if i % 2 == 0 else (("ours", ours), ("bare", bare)):
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    b, o = statistics.median(times["bare"]), statistics.median(times["ours"])
    print(f"bare to_edge_transform_and_lower: median {b:.2f} s of {len(times['bare'])}")
    print(f"lower('xnnpack'):                 median {o:.2f} s of {len(times['ours'])}")
    print(f"ratio lower('xnnpack') / bare = {o / b:.3f}  (goal <= 1.10)")


if __name__ == "__main__":
    main()
