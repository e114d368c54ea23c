"""Where pl.capture's CPU goes beyond bare torchao, phase by phase, in one process (docs/bench.md).

    python bench/capture_phases.py MODEL QUANTIZER [--repeats 3] [--profile lens|bare]

MODEL and QUANTIZER as in bench/zoo.py (e.g. 'timm resnet18' 'XNNPACK dynamic'). Both flows first run once on a
tiny model (and a transformers model once on itself, as bench/zoo_child.py does), then alternate `--repeats`
times: bare torchao (export → .module() → prepare_pt2e → 4 batches → convert_pt2e) timed per step; pl.capture
timed per phase by wrapping the functions it calls (exclusive CPU seconds: a phase's time excludes the phases
nested inside it). Prints the per-phase minimum over the repeats, process CPU seconds (time.process_time).
`--profile`: one more flow of that kind under cProfile, its top functions by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import os
import pstats
import sys
import time
import warnings
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kernel_pkg"))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402
from torch import nn  # noqa: E402

import pt2e_lens as pl  # noqa: E402
from bench.conformance_cases import _quiet  # noqa: E402
from bench.conformance_quantizers import CASES  # noqa: E402
from bench.zoo import QUANTIZERS  # noqa: E402
from bench.zoo_models import ZOO, build  # noqa: E402

_stack: list[list] = []  # [label, start, time of nested phases]
_spent: dict[str, float] = defaultdict(float)


def _timed(label: str, fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _stack.append([label, time.process_time(), 0.0])
        try:
            return fn(*args, **kwargs)
        finally:
            lab, start, nested = _stack.pop()
            total = time.process_time() - start
            _spent[lab] += total - nested
            if _stack:
                _stack[-1][2] += total

    return wrapper


def _wrap(obj, name: str, label: str) -> None:
    setattr(obj, name, _timed(label, getattr(obj, name)))


def instrument() -> None:
    """Wrap what pl.capture calls, by the names its modules hold them under."""
    from pt2e_lens.capture import _calibrated, _shared, run, stage
    from pt2e_lens.prepare import annotate, checks, recorder

    for name, label in [
        ("export", "export"),
        ("own_state", "own_state (program's buffers)"),
        ("private_copy", "private_copy (prepared stage)"),
        ("convert_pt2e", "convert_pt2e"),
        ("observer_sites", "observer_sites"),
        ("roles_from_diff", "roles_from_diff"),
        ("serves_from_callback", "serves_from_callback"),
        ("feed", "calibration forwards (feed)"),
        ("build", "annotated snapshot (build)"),
        ("with_findings", "annotated snapshot (findings)"),
    ]:
        _wrap(run, name, label)
    _wrap(stage, "own_tensors", "fresh_module own_tensors")
    _wrap(checks, "prepare_pt2e", "prepare_pt2e (torchao)")
    _wrap(checks, "problems", "checks.problems")
    _wrap(checks, "batch_norms", "batch_norms")
    _wrap(recorder, "annotate_with_blame", "annotate (quantizer's own)")
    _wrap(annotate.WatchingRecorder, "annotate", "annotate (watching)")
    for method in ("check", "add_module", "add_theirs", "lent_back"):
        _wrap(_shared.SharedWeights, method, f"SharedWeights.{method}")
    from pt2e_lens.capture import _lent

    for method in ("keep", "settle"):
        _wrap(_lent.Loan, method, f"lent weights: Loan.{method}")
    _wrap(_calibrated.Baseline, "__init__", "Baseline")
    _wrap(_calibrated.Baseline, "changes", "Baseline.changes")
    _wrap(run.Run, "_calibrated_stage", "calibrated stage")
    _wrap(run.Run, "__init__", "Run.__init__ (rest)")
    _wrap(run.Run, "_prepare", "prepare (rest)")
    _wrap(run.Run, "calibrate", "calibrate (rest)")
    _wrap(run.Run, "convert", "convert (rest)")
    _wrap(run, "capture", "capture (rest)")
    _wrap(stage.Stage, "fresh_module", "fresh_module (ep.module)")


def bare(case, model: nn.Module, inputs: tuple, batches: list[tuple], times: dict) -> None:
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    quantizer = case.make()
    t = time.process_time()

    def lap(label: str) -> None:
        nonlocal t
        now = time.process_time()
        times[label] += now - t
        t = now

    ep = torch.export.export(model, inputs)
    lap("export")
    gm = ep.module()
    lap("ep.module()")
    prepared = prepare_pt2e(gm, quantizer)
    lap("prepare_pt2e (torchao)")
    with torch.no_grad():
        for batch in batches:
            prepared(*batch)
    lap("calibration forwards")
    convert_pt2e(prepared)
    lap("convert_pt2e")


def lens(case, model: nn.Module, inputs: tuple, batches: list[tuple], times: dict) -> None:
    from pt2e_lens.capture import run

    _spent.clear()
    run.capture(model, inputs, case.make(), calibration=batches)
    times.update(_spent)


def flow(which: str, case, model_name: str) -> dict[str, float]:
    model, inputs, batches = build(model_name)
    gc.collect()
    times: dict[str, float] = defaultdict(float)
    start = time.process_time()
    (bare if which == "bare" else lens)(case, model, inputs, batches, times)
    times["TOTAL"] = time.process_time() - start
    return dict(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", choices=list(ZOO))
    parser.add_argument("quantizer", choices=list(QUANTIZERS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", choices=("bare", "lens"))
    parser.add_argument("--profile-out", help="with --profile: also save the cProfile stats to this file")
    args = parser.parse_args()
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    pl.quiet()
    case = next(c for c in CASES if c.name == QUANTIZERS[args.quantizer])
    instrument()
    tiny = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 4)).eval()
    runs: dict[str, list[dict]] = {"bare": [], "lens": []}
    with _quiet():
        for which in ("bare", "lens"):
            (bare if which == "bare" else lens)(
                case, tiny, (torch.randn(1, 3, 8, 8),), [(torch.randn(1, 3, 8, 8),)], defaultdict(float)
            )
            if ZOO[args.model].zoo == "transformers":
                flow(which, case, args.model)
        for i in range(args.repeats):
            for which in ("bare", "lens") if i % 2 == 0 else ("lens", "bare"):
                runs[which].append(flow(which, case, args.model))
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            flow(args.profile, case, args.model)
            prof.disable()
    print(
        f"{args.model} × {args.quantizer}, torch {torch.__version__}, load {os.getloadavg()[0]:.1f}, "
        f"CPU s, min of {args.repeats} (all runs)"
    )
    for which, got in runs.items():
        labels = sorted({k for r in got for k in r}, key=lambda k: -min(r.get(k, 0) for r in got))
        for k in labels:
            vals = [r.get(k, 0.0) for r in got]
            print(f"  {which:4} {k:36} {min(vals):7.3f}  ({', '.join(f'{v:.3f}' for v in vals)})")
    if args.profile:
        if args.profile_out:
            prof.dump_stats(args.profile_out)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(60)


if __name__ == "__main__":
    main()
