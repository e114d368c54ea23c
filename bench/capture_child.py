"""One measurement of bench/capture_scale.py, alone in its own process so its peak RSS is its own.

    python bench/capture_child.py bare|lens KIND N BATCHES THREADS

Prints one line `RESULT {json}`: wall and CPU seconds of the timed work, seconds in the garbage collector
(and full passes), peak RSS before and after it, node counts. `lens` times pl.capture and then the
converted stage's snapshot (what `pl.show(run)` draws first); `bare` times what a user writes without
pt2e-lens: export → prepare_pt2e → calibrate → convert_pt2e with the same quantizer and batches.
pt2e_lens is imported from PYTHONPATH, so the driver can time an older checkout in the same run.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402

from bench import models  # noqa: E402

QUANTIZER = os.environ.get("PT2E_LENS_BENCH_QUANTIZER", "xnnpack")


def quantizer():
    """torchao's XNNPACKQuantizer (symmetric int8, what bench/view_docs.py's decoder-100k uses) or, with
    PT2E_LENS_BENCH_QUANTIZER=x86, its X86InductorQuantizer: a fresh one per pipeline."""
    if QUANTIZER == "x86":
        from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
            X86InductorQuantizer,
            get_default_x86_inductor_quantization_config,
        )

        return X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config())


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def bare(model, inputs, batches) -> dict:
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    steps, t = {}, time.perf_counter()
    m = torch.export.export(model, inputs).module()
    steps["export"], t = time.perf_counter() - t, time.perf_counter()
    m = prepare_pt2e(m, quantizer())
    steps["prepare"], t = time.perf_counter() - t, time.perf_counter()
    with torch.no_grad():
        for b in batches:
            m(*b)
    steps["calibrate"], t = time.perf_counter() - t, time.perf_counter()
    m = convert_pt2e(m)
    steps["convert"] = time.perf_counter() - t
    return {"steps": steps, "nodes": len(m.graph.nodes)}


def lens(model, inputs, batches) -> dict:
    import pt2e_lens as pl

    t = time.perf_counter()
    run = pl.capture(model, inputs, quantizer(), calibration=batches)
    capture_s, t = time.perf_counter() - t, time.perf_counter()
    snap = run.snapshot
    steps = {"capture": capture_s, "snapshot": time.perf_counter() - t}
    return {"steps": steps, "nodes": len(snap.nodes), "pt2e_lens": os.path.dirname(pl.__file__)}


def main() -> None:
    which, kind, n, n_batches, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    warnings.filterwarnings("ignore")
    torch.set_num_threads(threads)
    if which == "lens":
        import pt2e_lens as pl

        pl.quiet()
    work = bare if which == "bare" else lens
    small, small_inputs = models.build(kind, 1)  # warm up: lazy imports and dispatcher caches
    work(small, small_inputs, models.calibration(kind, 1, small_inputs))
    model, inputs = models.build(kind, n)
    batches = models.calibration(kind, n_batches, inputs)
    gc.collect()
    before = rss_mb()
    gc_s, gc_full, started = [0.0], [0], [0.0]

    def on_gc(phase, info):
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            gc_s[0] += time.perf_counter() - started[0]
            gc_full[0] += info["generation"] == 2

    gc.callbacks.append(on_gc)
    c, t = time.process_time(), time.perf_counter()
    out = work(model, inputs, batches)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    gc.callbacks.remove(on_gc)
    out.update(wall=wall, cpu=cpu, gc_s=gc_s[0], gc_full=gc_full[0], rss_before_mb=before, rss_peak_mb=rss_mb())
    print("RESULT " + json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
