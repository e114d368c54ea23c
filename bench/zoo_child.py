"""One zoo measurement of bench/zoo.py, alone in its own process so its peak RSS is its own.

    python bench/zoo_child.py bare|lens MODEL QUANTIZER

`bare`: what a user writes without pt2e-lens: torch.export.export(...).module() → prepare_pt2e → 4 calibration
batches → convert_pt2e, reading observers from the real prepared graph and the annotation map right after the
quantizer's own `annotate` (bench/conformance_cases.py). `lens`: pl.capture with a freshly built quantizer of
the same case, same model and batches; then its counts and annotation map read from the snapshots.
Both first run once on a tiny model (lazy imports, dispatcher caches; a transformers model: once on a copy of
itself, since transformers imports its export paths lazily), then the baseline RSS is taken after
the zoo model is built. Prints one line `RESULT {json}`.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
import time
import warnings
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kernel_pkg"))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402
from torch import nn  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from bench.conformance_cases import (  # noqa: E402
    _is_observer,
    _quiet,
    _recording_annotations,
    lens_annotations,
    lens_counts,
    op_name,
)
from bench.conformance_quantizers import CASES, QuantizerCase  # noqa: E402
from bench.zoo_models import ZOO, build  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def current_mb() -> float:
    with open("/proc/self/status") as f:
        line = next(ln for ln in f if ln.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def bare(case: QuantizerCase, model: nn.Module, inputs: tuple, batches: list[tuple]) -> dict:
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    quantizer = case.make()
    annotations: dict = {}
    _recording_annotations(quantizer, annotations)
    prepared = prepare_pt2e(torch.export.export(model, inputs).module(), quantizer)
    calls = [
        n for n in prepared.graph.nodes if n.op == "call_module" and _is_observer(prepared.get_submodule(n.target))
    ]
    instances = len({id(prepared.get_submodule(n.target)) for n in calls})
    with torch.no_grad():
        for batch in batches:
            prepared(*batch)
    converted = convert_pt2e(prepared)
    ops = Counter(op_name(n.target) for n in converted.graph.nodes if n.op == "call_function")
    return {"calls": len(calls), "instances": instances, "ops": ops, "annotations": annotations}


def lens(case: QuantizerCase, model: nn.Module, inputs: tuple, batches: list[tuple]) -> pl.Run:
    return pl.capture(model, inputs, case.make(), calibration=batches)


def measure(which: str, model_name: str, case: QuantizerCase) -> dict:
    work = bare if which == "bare" else lens
    tiny = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 4)).eval()
    tiny_inputs = (torch.randn(1, 3, 8, 8),)
    work(case, tiny, tiny_inputs, [tiny_inputs])
    del tiny
    if ZOO[model_name].zoo == "transformers":  # small already; its export paths import lazily on first use
        warm, warm_inputs, _ = build(model_name)
        work(case, warm, warm_inputs, [warm_inputs])
        del warm
    model, inputs, batches = build(model_name)
    gc.collect()
    base, peak_before = current_mb(), peak_mb()
    c, t = time.process_time(), time.perf_counter()
    out = work(case, model, inputs, batches)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    result = {
        "cpu": cpu,
        "wall": wall,
        "rss_base_mb": base,
        "rss_peak_before_mb": peak_before,
        "rss_peak_mb": peak_mb(),
    }
    if which == "bare":
        assert isinstance(out, dict)
        result.update(out)
    else:
        assert isinstance(out, pl.Run)
        calls, instances, ops = lens_counts(out)
        result.update(calls=calls, instances=instances, ops=ops, annotations=lens_annotations(out))
        result["rss_peak_read_mb"] = peak_mb()  # after the snapshots are read too
    result["nodes"] = sum(result["ops"].values())
    return result


def main() -> None:
    which, model_name, quantizer = sys.argv[1], sys.argv[2], sys.argv[3]
    torch.set_num_threads(1)  # CPU seconds comparable between the two flows, and the shared machine left alone
    warnings.filterwarnings("ignore")
    pl.quiet()
    case = next(c for c in CASES if c.name == quantizer)
    with _quiet():
        result = measure(which, model_name, case)
    print("RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
