"""Times Model Explorer's PyTorch adapter on one bench graph; runs in the venv that has
`ai-edge-model-explorer` (default .bench-venv in the checkout) and prints one JSON line.

    .bench-venv/bin/python bench/me_worker.py resnet 250 --repeats 3 [--pl]

`convert`: PytorchExportedProgramAdapterImpl(ep, DEFAULT_SETTINGS).convert() — exactly what
`model_explorer.visualize_pytorch` does before serving; `json`: the json.dumps the config then does.
With --pl (and pt2e_lens + torchao importable here) it also times pt2e-lens's snapshot + analyses in
this same process, so the ratio can be cross-checked without the process boundary.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import logging  # noqa: E402

for name in ("torchao", "torch.utils._pytree", "torch._export", "torch.export"):
    logging.getLogger(name).setLevel(logging.ERROR)

import warnings  # noqa: E402

warnings.filterwarnings("ignore")

from bench import models  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind")
    ap.add_argument("n", type=int)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pl", action="store_true", help="also time pt2e-lens in this process")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)

    from model_explorer.consts import DEFAULT_SETTINGS
    from model_explorer.pytorch_exported_program_adapter_impl import PytorchExportedProgramAdapterImpl
    from model_explorer.utils import convert_adapter_response

    t = time.perf_counter()
    ep = models.export(args.kind, args.n)
    export_s = time.perf_counter() - t

    out = {
        "kind": args.kind,
        "n": args.n,
        "ep_nodes": len(ep.graph.nodes),
        "export_s": export_s,
        "convert_s": [],
        "convert_cpu_s": [],
        "convert_gc_s": [],
        "json_s": [],
        "json_bytes": None,
    }
    pl_fn = None
    if args.pl:
        try:
            from bench.workloads import pl_snapshot_and_analyses

            pl_fn = pl_snapshot_and_analyses
            out["pl_s"], out["pl_cpu_s"] = [], []
        except Exception as e:  # pt2e_lens not importable in this venv: skip the cross-check
            out["pl_error"] = f"{type(e).__name__}: {e}"
    gc_time = [0.0, 0.0]

    def on_gc(phase, info):  # seconds spent in the cyclic garbage collector during ME's convert
        if phase == "start":
            gc_time[1] = time.perf_counter()
        else:
            gc_time[0] += time.perf_counter() - gc_time[1]

    warm = models.export("resnet", 2)  # first calls pay lazy imports and caches: not what we time
    PytorchExportedProgramAdapterImpl(warm, DEFAULT_SETTINGS).convert()
    if pl_fn is not None:
        pl_fn(warm)
    for _ in range(args.repeats):
        gc.collect()
        gc_time[0] = 0.0
        gc.callbacks.append(on_gc)
        c, t = time.process_time(), time.perf_counter()
        graphs = PytorchExportedProgramAdapterImpl(ep, DEFAULT_SETTINGS).convert()
        out["convert_s"].append(time.perf_counter() - t)
        gc.callbacks.remove(on_gc)
        out["convert_gc_s"].append(gc_time[0])
        out["convert_cpu_s"].append(time.process_time() - c)
        t = time.perf_counter()
        text = json.dumps(convert_adapter_response(graphs))
        out["json_s"].append(time.perf_counter() - t)
        out["json_bytes"] = len(text.encode())
        out["me_nodes"] = len(graphs["graphs"][0].nodes)
        del graphs, text
        if pl_fn is not None:
            gc.collect()
            c, t = time.process_time(), time.perf_counter()
            pl_fn(ep)
            out["pl_s"].append(time.perf_counter() - t)
            out["pl_cpu_s"].append(time.process_time() - c)
    out["convert_median_s"] = statistics.median(out["convert_s"])
    out["convert_cpu_median_s"] = statistics.median(out["convert_cpu_s"])
    out["convert_gc_median_s"] = statistics.median(out["convert_gc_s"])
    if pl_fn is not None:
        out["pl_median_s"] = statistics.median(out["pl_s"])
        out["pl_cpu_median_s"] = statistics.median(out["pl_cpu_s"])
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
