"""pl.sensitivity / pl.recipe costs, as ratios measured in this one run.

    PYTHONPATH=kernel_pkg .venv/bin/python bench/sensitivity.py            # ~2 min on 2 cores
    PYTHONPATH=kernel_pkg .venv/bin/python bench/sensitivity.py --no-dask  # serial ratios only

On DeepNet(25) (51 sites under the XNNPACK-style quantizer), 8 batches:
  1. serial sweep (one configuration per site + the baseline) ÷ (S × one forward of the converted
     module on the same batches)                                                         goal ≤ 1.3
  2. the same with `only=True` (two configurations per site) ÷ (2S forwards), for reference
  3. one private deep copy of the converted module ÷ one forward: what a copy per site would add
  4. the sweep on a 2-process Dask LocalCluster (started, warmed up, closed here) ÷ serial  goal ≤ 0.6
     (workers started without Dask's MALLOC_TRIM_THRESHOLD_; --dask-trim keeps it, to see what it costs)
  5. pl.recipe's verification: how many prepares (captures) it runs                       goal 1
  6. pl.recipe from scratch (its sweep, its picks, its verifying capture) ÷ (S × forward)  goal ≤ 1.3
  7. pl.recipe with a target the fully quantized run meets ÷ one forward (no sweep)
Medians of a few repeats, one torch thread (--threads) in the serial run as in each worker. No assertions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "kernel_pkg"))

import torch  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from pt2e_lens._copy import private_copy  # noqa: E402
from pt2e_lens.capture import Run  # noqa: E402
from pt2e_lens.examples import DeepNet, image_batches, xnnpack_quantizer  # noqa: E402
from pt2e_lens.why.sensitivity import forward_all  # noqa: E402

pl.quiet()
warnings.filterwarnings("ignore")


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--blocks", type=int, default=25)
    ap.add_argument("--batches", type=int, default=8)
    ap.add_argument("--size", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--dask-trim", action="store_true", help="keep Dask's MALLOC_TRIM_THRESHOLD_ in its workers")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    # the serial run gets the torch threads a worker gets: on a shared 2-core machine two OpenMP threads
    # spin against each other (one forward here: 8 s with 2 threads, 0.3 s with 1)
    torch.set_num_threads(args.threads)

    batches = image_batches(args.batches, batch=8, size=args.size)
    run = pl.capture(DeepNet(args.blocks).eval(), batches[0], xnnpack_quantizer(), calibration=batches)
    converted = run["converted"].graph_module
    forward = median_time(lambda: forward_all(converted, batches), args.repeats * 3)
    table = pl.sensitivity(run, batches, only=False)
    sites = len(table)
    print(f"DeepNet({args.blocks}): {sites} sites, one forward on {args.batches} batches {forward * 1e3:.1f} ms")

    def ratio(sweep, forwards: int) -> float:
        """Median over repeats of (sweep time ÷ forwards × the forward measured right before it)."""
        out = []
        for _ in range(args.repeats):
            one = median_time(lambda: forward_all(converted, batches), 2)
            out.append(median_time(sweep, 1) / (forwards * one))
        return statistics.median(out)

    def serial_sweep():
        return pl.sensitivity(run, batches, only=False)

    print(f"1. serial sweep ÷ (S × forward)              {ratio(serial_sweep, sites):.2f}   (goal ≤ 1.3)")
    both = ratio(lambda: pl.sensitivity(run, batches, only=True), 2 * sites)
    print(f"2. sweep with only=True ÷ (2S × forward)      {both:.2f}")
    copy_time = median_time(lambda: private_copy(converted), args.repeats * 3)
    print(f"3. one private copy ÷ one forward             {copy_time / forward:.2f}   (a copy per site would add this)")

    if not args.no_dask:
        import dask
        from distributed import Client, LocalCluster

        # Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which turns glibc's dynamic mmap
        # threshold off: every tensor over 128 KiB is mmapped and faulted in anew (3.5x slower forwards of the
        # 32x32 model in a worker); docs/accuracy.md tells users the same
        env = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
        if not args.dask_trim:
            env.pop("MALLOC_TRIM_THRESHOLD_", None)
        dask.config.set({"distributed.nanny.pre-spawn-environ": env})
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                executor = client.get_executor()
                pl.sensitivity(run, batches[:1], only=False, executor=executor, chunks=2)  # workers import torch
                ratios = []
                for _ in range(args.repeats):  # serial and cluster alternate: the machine's load hits both alike
                    serial = median_time(serial_sweep, 1)
                    spread = median_time(
                        lambda: pl.sensitivity(run, batches, only=False, executor=executor, chunks=4), 1
                    )
                    ratios.append(spread / serial)
        print(f"4. 2-worker LocalCluster sweep ÷ serial       {statistics.median(ratios):.2f}   (goal ≤ 0.6)")

    prepares = []
    original = Run.prepare

    def counting(self, quantizer):
        prepares.append(type(quantizer).__name__)
        return original(self, quantizer)

    Run.prepare = counting  # type: ignore[method-assign]
    try:
        recipe = pl.recipe(run, batches, target_sqnr=table.baseline_db + 3, sensitivity_table=table)
    finally:
        Run.prepare = original  # type: ignore[method-assign]
    print(
        f"5. pl.recipe prepares (captures)              {len(prepares)}      (goal 1; "
        f"{len(recipe.sites)} fp32 sites, predicted {recipe.predicted_db:.2f} dB, verified {recipe.verified_db:.2f} dB)"
    )

    whole = ratio(lambda: pl.recipe(run, batches, target_sqnr=table.baseline_db + 3), sites)
    print(f"6. pl.recipe (sweep, picks, verify) ÷ (S × forward)   {whole:.2f}   (goal ≤ 1.3)")
    met = ratio(lambda: pl.recipe(run, batches, target_sqnr=table.baseline_db - 1), 1)
    print(
        f"7. pl.recipe, target already met ÷ one forward        {met:.2f}   (no sweep: the float and the quantized run)"
    )


if __name__ == "__main__":
    main()
