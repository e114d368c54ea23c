"""pt2e-lens benchmarks: capture overhead, snapshot + analyses vs Model Explorer, JSON size.

    PYTHONPATH=kernel_pkg .venv/bin/python bench/capture.py --quick   # < 1 min
    PYTHONPATH=kernel_pkg .venv/bin/python bench/capture.py           # full (~5 min)

Prints three ratios, each measured in this one run (medians of a few repeats, alternating order):
  1. pl.capture(...) ÷ the bare torchao pipeline (export → prepare_pt2e → calibrate → convert_pt2e)
     on a 200-conv conv-bn-relu net with pt2e_lens.examples.ConvQuantizer         goal ≤ 1.10
  2. pl.snapshot + every analysis ÷ Model Explorer's PyTorch adapter convert on the same
     ExportedProgram (~5k and ~20k nodes; ME runs in --me-python, a separate venv)  goal ≤ 0.50
  3. Snapshot.to_json() bytes per node for the exported, prepared and converted stages
  and with --only scale: pl.capture + snapshot ÷ bare on the decoder (--decoder blocks, default ~100k nodes),
     each measurement in its own process with its peak RSS (bench/capture_scale.py)           goal ≤ 1.10, < 4 GB
plus where pt2e-lens spends its time (cProfile). No assertions: numbers only.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable

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
from bench.capture_scale import bench_scale  # noqa: E402
from bench.workloads import pl_snapshot_and_analyses  # noqa: E402
from pt2e_lens._torchao import convert_pt2e, prepare_pt2e  # noqa: E402
from pt2e_lens.examples import ConvQuantizer  # noqa: E402


# ---------------------------------------------------------------- helpers
def timed(fn: Callable, *a, **k) -> tuple[float, object]:
    """Wall seconds and result; the process CPU seconds of the call go to CPU[-1]."""
    gc.collect()
    with GCTime() as g:
        c, t = time.process_time(), time.perf_counter()
        out = fn(*a, **k)
        wall = time.perf_counter() - t
        CPU.append(time.process_time() - c)
    GC.append((g.seconds, g.full))
    return wall, out


CPU: list[float] = []  # process CPU time of the last timed() call: steadier than wall time on a busy machine
GC: list[tuple[float, int]] = []  # (seconds in the garbage collector, full passes) of the last timed() call


class GCTime:
    """Seconds the cyclic garbage collector ran inside a `with` block, and how many full (gen 2) passes."""

    def __enter__(self):
        self.seconds, self.full, self._start = 0.0, 0, 0.0
        gc.callbacks.append(self._cb)
        return self

    def _cb(self, phase, info):
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._start
            self.full += info["generation"] == 2

    def __exit__(self, *exc):
        gc.callbacks.remove(self._cb)


def med(xs) -> float:
    return statistics.median(xs)


def ms(s: float) -> str:
    return f"{s * 1e3:,.0f} ms" if s >= 0.01 else f"{s * 1e3:.2f} ms"


def profile(fn: Callable) -> pstats.Stats:
    prof = cProfile.Profile()
    gc.collect()
    prof.enable()
    fn()
    prof.disable()
    return pstats.Stats(prof)


def cum(stats: pstats.Stats, func: str, file_part: str = "") -> tuple[float, int]:
    """Cumulative seconds and primitive call count of every profiled function named `func` in a file
    whose path contains `file_part` (pstats' cumulative time already handles recursion)."""
    total, calls = 0.0, 0
    for (file, _line, name), (cc, _nc, _tt, ct, _callers) in stats.stats.items():
        if name == func and file_part in file:
            total += ct
            calls += cc
    return total, calls


def top(stats: pstats.Stats, n: int, key: str = "tottime") -> str:
    buf = io.StringIO()
    stats.stream = buf
    stats.sort_stats(key).print_stats(n)
    lines = buf.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    return "\n".join(
        line.replace(ROOT + "/", "").replace(sys.prefix, "<venv>") for line in lines[start:] if line.strip()
    )


# ---------------------------------------------------------------- 1. capture overhead
def bare_pipeline(model, inputs, batches, steps: dict | None = None):
    """What a user writes without pt2e-lens: export, prepare on ep.module() (a fresh copy), calibrate, convert."""
    t0 = time.perf_counter()
    ep = torch.export.export(model, inputs)
    m = ep.module()
    t1 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = prepare_pt2e(m, ConvQuantizer())
    t2 = time.perf_counter()
    with torch.no_grad():
        for b in batches:
            m(*b)
    t3 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = convert_pt2e(m)
    t4 = time.perf_counter()
    if steps is not None:
        for k, v in zip(("export", "prepare", "calibrate", "convert"), (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            steps.setdefault(k, []).append(v)
    return m


def lens_capture(model, inputs, batches):
    return pl.capture(model, inputs, ConvQuantizer(), calibration=batches)


def bench_capture(n_convs: int, n_batches: int, repeats: int, results: dict) -> pl.Run:
    model, inputs = models.build("convnet", n_convs)
    batches = models.calibration("convnet", n_batches, inputs)
    print(
        f"\n== 1. capture overhead: convnet {n_convs} convs, {n_batches} calibration batches "
        f"of {tuple(inputs[0].shape)}, {repeats} repeats (alternating order)"
    )
    wm, wi = models.build("convnet", 3)  # warm up both paths (lazy imports, dispatcher caches)
    bare_pipeline(wm, wi, models.calibration("convnet", 1, wi))
    lens_capture(wm, wi, models.calibration("convnet", 1, wi))

    bare_t, lens_t, bare_c, lens_c, pair_ratios, steps = [], [], [], [], [], {}
    run = None
    for i in range(repeats):
        order = ("bare", "lens") if i % 2 == 0 else ("lens", "bare")
        got = {}
        for which in order:
            run = None  # free the previous run: its five graph copies would make every GC pass of the next run longer
            if which == "bare":
                got["bare"], _ = timed(bare_pipeline, model, inputs, batches, steps)
                got["bare_cpu"], got["bare_gc"] = CPU[-1], GC[-1]
            else:
                got["lens"], run = timed(lens_capture, model, inputs, batches)
                got["lens_cpu"], got["lens_gc"] = CPU[-1], GC[-1]
        bare_t.append(got["bare"])
        lens_t.append(got["lens"])
        bare_c.append(got["bare_cpu"])
        lens_c.append(got["lens_cpu"])
        pair_ratios.append(got["lens"] / got["bare"])
        print(
            f"   repeat {i}: bare {got['bare']:.2f} s (cpu {got['bare_cpu']:.2f}), pl.capture {got['lens']:.2f} s "
            f"(cpu {got['lens_cpu']:.2f}), ratio {pair_ratios[-1]:.2f} (cpu {got['lens_cpu'] / got['bare_cpu']:.2f}); "
            f"in gc: bare {got['bare_gc'][0]:.2f} s ({got['bare_gc'][1]} full), pl {got['lens_gc'][0]:.2f} s "
            f"({got['lens_gc'][1]} full)",
            flush=True,
        )
    if run is None:
        run = lens_capture(model, inputs, batches)
    ratio = med(lens_t) / med(bare_t)
    ratio_cpu = med(lens_c) / med(bare_c)
    nodes = {s.name: len(s.graph_module.graph.nodes) for s in run}
    print(f"   nodes per stage: {nodes}")
    print(
        f"   bare pipeline median {med(bare_t):.2f} s  ("
        + ", ".join(f"{k} {med(v):.2f}" for k, v in steps.items())
        + ")"
    )
    print(f"   pl.capture    median {med(lens_t):.2f} s")
    print(
        f"   RATIO capture ÷ bare = {ratio:.2f} wall, {ratio_cpu:.2f} CPU time   (median of per-pair wall ratios "
        f"{med(pair_ratios):.2f}; goal ≤ 1.10)"
    )

    # where the extra time goes: cProfile one capture
    stats = profile(lambda: lens_capture(model, inputs, batches))
    total = sum(v[3] for k, v in stats.stats.items() if k[2] == "capture" and "pt2e_lens/capture/run.py" in k[0])
    parts = {
        "private_copy (all copies)": cum(stats, "private_copy", "pt2e_lens/_copy.py"),
        "  copy.deepcopy(gm) inside it": cum(stats, "__deepcopy__", "torch/fx/graph_module.py"),
        "  GraphModule.recompile (all)": cum(stats, "recompile", "torch/fx/graph_module.py"),
        "  _remap_annotation": cum(stats, "_remap_annotation", "pt2e_lens/_copy.py"),
        "_annotation_ids (blame bookkeeping)": cum(stats, "_annotation_ids", "pt2e_lens/capture/_recorder.py"),
        "serves_from_callback": cum(stats, "serves_from_callback", "pt2e_lens/snapshot/_observers.py"),
        "torch.export.export": cum(stats, "export", "torch/export/__init__.py"),
        "ExportedProgram.module()": cum(stats, "module", "torch/export/exported_program.py"),
        "prepare_pt2e (incl. annotated-stage copy)": cum(stats, "prepare_pt2e", "quantize_pt2e.py"),
        "  _fuse_conv_bn_": cum(stats, "_fuse_conv_bn_", "torchao"),
        "convert_pt2e": cum(stats, "convert_pt2e", "quantize_pt2e.py"),
    }
    print(
        f"   cProfile of one pl.capture ({total:.2f} s under the profiler; profiler overhead inflates Python-heavy parts):"
    )
    for k, (s, c) in parts.items():
        print(f"     {k:<44} {s:6.2f} s  {c:4d} call(s)  {100 * s / total:5.1f} %")
    extra = med(lens_t) - med(bare_t)
    pc = parts["private_copy (all copies)"]
    print(
        f"   extra time pl.capture − bare (medians): {extra:.2f} s; private_copy alone ≈ {pc[0]:.2f} s under cProfile "
        f"({pc[1]} copies, {pc[0] / max(pc[1], 1) * 1e3:.0f} ms each)"
    )

    # snapshots are lazy (Stage.snapshot is a cached_property): what viewing every stage costs
    snap_t = {}
    for stage in run:
        snap_t[stage.name], _ = timed(lambda s=stage: s.snapshot)
    print(
        "   snapshot build per stage (lazy, paid when first viewed): "
        + ", ".join(f"{k} {ms(v)}" for k, v in snap_t.items())
        + f" — all {sum(snap_t.values()):.2f} s = {sum(snap_t.values()) / med(bare_t):.2f} × bare pipeline"
    )
    fresh = lens_capture(model, inputs, batches)
    sstats = profile(lambda: [s.snapshot for s in fresh])
    qp = cum(sstats, "calculate_qparams", "torchao")
    print(
        f"   of which observers' calculate_qparams (HistogramObserver's _non_linear_param_search): "
        f"{qp[0]:.2f} s in {qp[1]} calls under cProfile; top 6 by own time of building every stage's snapshot:"
    )
    print("     " + top(sstats, 6).replace("\n", "\n     "))
    results["capture"] = {
        "n_convs": n_convs,
        "n_batches": n_batches,
        "nodes": nodes,
        "bare_s": bare_t,
        "lens_s": lens_t,
        "bare_cpu_s": bare_c,
        "lens_cpu_s": lens_c,
        "ratio_cpu": ratio_cpu,
        "bare_steps_s": steps,
        "ratio": ratio,
        "pair_ratios": pair_ratios,
        "profile": {k: {"s": s, "calls": c} for k, (s, c) in parts.items()},
        "profile_total_s": total,
        "snapshot_s": snap_t,
    }
    results["capture_top"] = top(stats, 15)
    print("   top 15 by own time (pl.capture):")
    print("     " + results["capture_top"].replace("\n", "\n     "))
    return run


# ---------------------------------------------------------------- 2. snapshot + analyses vs Model Explorer
def run_me(me_python: str, kind: str, n: int, repeats: int) -> dict | None:
    if not os.path.exists(me_python):
        print(f"   (Model Explorer skipped: {me_python} not found — see docs/bench.md for the venv)")
        return None
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "kernel_pkg"))
    cmd = [
        me_python,
        os.path.join(HERE, "me_worker.py"),
        kind,
        str(n),
        "--repeats",
        str(repeats),
        "--pl",
        "--threads",
        str(torch.get_num_threads()),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if line is None:
        print(f"   (Model Explorer worker failed: {proc.stderr.strip().splitlines()[-1:]})")
        return None
    return json.loads(line[len("RESULT ") :])


def bench_analyses(sizes: list[tuple[str, int]], repeats: int, me_python: str, results: dict) -> None:
    print(f"\n== 2. pl.snapshot + all analyses vs Model Explorer PyTorch adapter ({repeats} repeats each)")
    print("   pl: snapshot, op_counts, annotations, observers, qdq, stage_diff(snap, snap), focus(top op, hops=2)")
    print("   ME: PytorchExportedProgramAdapterImpl(ep, DEFAULT_SETTINGS).convert() (what visualize_pytorch runs)")
    rows = []
    warm = models.export("resnet", 2)
    pl_snapshot_and_analyses(warm)
    for kind, n in sizes:
        ep = models.export(kind, n)
        nodes = len(ep.graph_module.graph.nodes)
        pl_t, pl_c, build_t, json_t, gc_t, gc_full = [], [], [], [], [], []
        for _ in range(repeats):
            t, out = timed(pl_snapshot_and_analyses, ep)
            pl_t.append(t)
            pl_c.append(CPU[-1])
            gc_t.append(GC[-1][0])
            gc_full.append(GC[-1][1])
            b, _ = timed(pl.snapshot, ep)
            build_t.append(b)
            j, text = timed(out["snapshot"].to_json)
            json_t.append(j)
        pl_bytes = len(text.encode())
        del ep, out, text
        me = run_me(me_python, kind, n, repeats)
        row = {
            "kind": kind,
            "n": n,
            "nodes": nodes,
            "pl_s": pl_t,
            "pl_median_s": med(pl_t),
            "pl_cpu_s": pl_c,
            "pl_gc_s": gc_t,
            "pl_gc_full": gc_full,
            "pl_snapshot_only_s": med(build_t),
            "pl_json_s": med(json_t),
            "pl_json_bytes": pl_bytes,
            "me": me,
        }
        line = (
            f"   {kind} {n} ({nodes:,} nodes): pl {ms(med(pl_t))} (snapshot alone {ms(med(build_t))}, "
            f"to_json {ms(med(json_t))}; in gc {ms(med(gc_t))}, full gc passes {gc_full})"
        )
        if me:
            row["ratio"] = med(pl_t) / me["convert_median_s"]
            row["ratio_cpu"] = med(pl_c) / me["convert_cpu_median_s"]
            line += (
                f" | ME convert {ms(me['convert_median_s'])} (in gc {ms(me['convert_gc_median_s'])}) | RATIO pl ÷ ME = {row['ratio']:.2f} wall, "
                f"{row['ratio_cpu']:.2f} CPU"
            )
            if "pl_median_s" in me:
                row["ratio_same_process"] = me["pl_median_s"] / me["convert_median_s"]
                line += f" (same-process check in ME's venv {row['ratio_same_process']:.2f})"
            line += (
                f"\n      with JSON: pl snapshot+analyses+to_json {ms(med(pl_t) + med(json_t))} vs ME convert+json.dumps "
                f"{ms(me['convert_median_s'] + med(me['json_s']))} = "
                f"{(med(pl_t) + med(json_t)) / (me['convert_median_s'] + med(me['json_s'])):.2f}; "
                f"bytes/node pl {pl_bytes / nodes:.0f} vs ME {me['json_bytes'] / nodes:.0f}"
            )
        print(line, flush=True)
        rows.append(row)
    results["analyses"] = rows

    # where pl spends its time on the biggest graph
    worst = max(rows, key=lambda r: r.get("ratio", 0) + r["nodes"] * 1e-9)  # the graph furthest from the goal
    kind, n = worst["kind"], worst["n"]
    ep = models.export(kind, n)
    stats = profile(lambda: pl_snapshot_and_analyses(ep))
    parts = {
        "build (snapshot)": cum(stats, "build", "pt2e_lens/snapshot/__init__.py"),
        "  nodes_and_edges": cum(stats, "nodes_and_edges", "pt2e_lens/snapshot/_nodes.py"),
        "    _source (stack_trace regex)": cum(stats, "_source", "pt2e_lens/snapshot/_nodes.py"),
        "    provenance": cum(stats, "provenance", "pt2e_lens/snapshot/_nodes.py"),
        "    role": cum(stats, "role", "pt2e_lens/snapshot/_nodes.py"),
        "    _shape_dtype": cum(stats, "_shape_dtype", "pt2e_lens/snapshot/_nodes.py"),
        "    inputs (_direct_inputs)": cum(stats, "_direct_inputs", "pt2e_lens/snapshot/_nodes.py"),
        "    targets and roles (_Memo.target)": cum(stats, "target", "pt2e_lens/snapshot/_nodes.py"),
        "    module stacks (_Memo.module_stack)": cum(stats, "module_stack", "pt2e_lens/snapshot/_nodes.py"),
        "  roles_from_provenance": cum(stats, "roles_from_provenance", "pt2e_lens/snapshot/inserted.py"),
        "  annotations (table)": cum(stats, "annotations", "pt2e_lens/snapshot/_specs.py"),
        "  named_modules": cum(stats, "named_modules", "torch/nn/modules/module.py"),
        "  qdq": cum(stats, "qdq", "pt2e_lens/snapshot/_qdq.py"),
        "findings (with_findings)": cum(stats, "with_findings", "pt2e_lens/analyses/findings.py"),
        "op_counts": cum(stats, "op_counts", "pt2e_lens/analyses/counts.py"),
        "annotations + observers + qdq tables": tuple(
            map(
                sum,
                zip(
                    *(cum(stats, f, "pt2e_lens/analyses/quantization.py") for f in ("annotations", "observers", "qdq"))
                ),
            )
        ),
        "stage_diff": cum(stats, "stage_diff", "pt2e_lens/analyses/stage_diff.py"),
        "focus": cum(stats, "focus", "pt2e_lens/analyses/focus.py"),
        "Snapshot.users + inputs (_links)": cum(stats, "_links", "pt2e_lens/snapshot/__init__.py"),
    }
    total = cum(stats, "pl_snapshot_and_analyses", "bench/workloads.py")[0]
    print(f"   cProfile of pl snapshot + analyses on {kind} {n} ({total:.2f} s under the profiler):")
    for k, (s, c) in parts.items():
        print(f"     {k:<36} {s:6.3f} s  {c:6d} call(s)  {100 * s / total:5.1f} %")
    results["analyses_profile"] = {
        "graph": f"{kind} {n}",
        "total_s": total,
        **{k: {"s": s, "calls": c} for k, (s, c) in parts.items()},
    }
    results["analyses_top"] = top(stats, 15)
    print("   top 15 by own time:")
    print("     " + results["analyses_top"].replace("\n", "\n     "))


# ---------------------------------------------------------------- 3. JSON bytes per node
def field_bytes(items: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        for k, v in item.items():
            out[k] = out.get(k, 0) + len(json.dumps(v, separators=(",", ":"))) + len(k) + 4
    return out


def bench_json(run: pl.Run, results: dict) -> None:
    print("\n== 3. Snapshot.to_json() size (the capture run's stages)")
    rows = {}
    for stage in run:
        snap = stage.snapshot
        text = snap.to_json()
        n = len(snap.nodes)
        size = len(text.encode())
        top_fields = {k: len(json.dumps(v, separators=(",", ":"))) for k, v in snap.data.items()}
        rows[stage.name] = {
            "nodes": n,
            "bytes": size,
            "bytes_per_node": size / n,
            "fields": top_fields,
            "node_fields": field_bytes(snap.nodes),
        }
        share = ", ".join(
            f"{k} {100 * v / size:.0f}%" for k, v in sorted(top_fields.items(), key=lambda kv: -kv[1])[:4]
        )
        print(f"   {stage.name:<10} {n:6,} nodes  {size / 1e6:6.2f} MB  {size / n:6.0f} B/node   ({share})")
    conv = rows.get("converted") or rows[list(rows)[-1]]
    nf = conv["node_fields"]
    total_nodes_bytes = sum(nf.values())
    print(
        "   per-node field share (converted): "
        + ", ".join(f"{k} {100 * v / total_nodes_bytes:.0f}%" for k, v in sorted(nf.items(), key=lambda kv: -kv[1])[:7])
    )
    results["json"] = rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes, under a minute")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument(
        "--me-python",
        default=os.environ.get("ME_PYTHON", ".bench-venv/bin/python"),
        help="a Python with ai-edge-model-explorer, torch 2.13 and torchao installed",
    )
    ap.add_argument("--only", choices=["capture", "analyses", "json", "scale"], action="append")
    ap.add_argument(
        "--decoder",
        type=int,
        default=None,
        help="blocks of the decoder for the scale case (bench/capture_scale.py; models.DECODER_100K ≈ 100k nodes)",
    )
    ap.add_argument("--baseline", help="scale case: also time pt2e_lens at this git ref (e.g. main), same run")
    ap.add_argument("--sizes", help="analyses graphs instead of the default ones, e.g. resnet:250,transformer:106")
    ap.add_argument("--json-out", help="write every number measured to this file")
    ap.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch intra-op threads (default 1: on a shared 2-core machine 2 OpenMP threads stall "
        "whenever another process holds a core, which swamps the ratios)",
    )
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    only = set(args.only or ["capture", "analyses", "json"])
    if args.quick:
        n_convs, n_batches, rep_c, rep_a = 40, 2, args.repeats or 2, args.repeats or 3
        sizes = [("resnet", 50), ("transformer", 20)]
    else:
        n_convs, n_batches, rep_c, rep_a = 200, 4, args.repeats or 5, args.repeats or 5
        sizes = [("resnet", 250), ("transformer", 106), ("resnet", 1000), ("transformer", 425)]
    if args.sizes:
        sizes = [(kind, int(n)) for kind, n in (item.split(":") for item in args.sizes.split(","))]
    print(
        f"pt2e-lens bench ({'quick' if args.quick else 'full'}): torch {torch.__version__}, "
        f"{torch.get_num_threads()} threads, python {sys.version.split()[0]}"
    )
    results: dict = {"mode": "quick" if args.quick else "full"}
    t0 = time.perf_counter()
    run = None
    if "capture" in only or "json" in only:
        if "capture" in only:
            run = bench_capture(n_convs, n_batches, rep_c, results)
        else:
            model, inputs = models.build("convnet", n_convs)
            run = lens_capture(model, inputs, models.calibration("convnet", n_batches, inputs))
    if "analyses" in only:
        bench_analyses(sizes, rep_a, args.me_python, results)
    if "json" in only:
        bench_json(run, results)
    if "scale" in only:  # not in the default set: minutes per repeat at 100k nodes
        blocks = args.decoder or (8 if args.quick else models.DECODER_100K)
        results["scale"] = bench_scale("decoder", blocks, 2, rep_c if args.repeats else 3, args.threads, args.baseline)

    print("\n== summary (ratios measured in this run)")
    if "capture" in results:
        print(
            f"   pl.capture ÷ bare torchao pipeline ({n_convs} convs): {results['capture']['ratio']:.2f} wall, "
            f"{results['capture']['ratio_cpu']:.2f} CPU  (goal ≤ 1.10)"
        )
    for row in results.get("analyses", []):
        if "ratio" in row:
            print(
                f"   snapshot+analyses ÷ ME convert, {row['kind']} {row['n']} ({row['nodes']:,} nodes): "
                f"{row['ratio']:.2f} wall, {row['ratio_cpu']:.2f} CPU, {row.get('ratio_same_process', float('nan')):.2f} "
                f"same-process  (goal ≤ 0.50)"
            )
    for name in ("exported", "prepared", "converted"):
        if name in results.get("json", {}):
            print(f"   JSON bytes/node {name}: {results['json'][name]['bytes_per_node']:.0f}")
    if "scale" in results:
        for k, v in results["scale"].items():
            if k.startswith("ratio "):
                print(
                    f"   {k[6:]} capture+snapshot ÷ bare, decoder {results['scale']['n']} blocks: {v['wall']:.2f} wall, "
                    f"{v['cpu']:.2f} CPU, peak RSS {results['scale']['median'][k[6:]]['rss_peak_mb']:,.0f} MB  (goal ≤ 1.10, < 4 GB)"
                )
    print(f"   wall time {time.perf_counter() - t0:.0f} s")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(results, f, indent=1, default=str)


if __name__ == "__main__":
    main()
