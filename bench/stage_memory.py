"""Where pl.capture's memory goes: RSS per step of the pipeline, bare torchao vs pt2e-lens, and the tensor
storage each stage holds (shared storage counted once).

    python bench/stage_memory.py vit_b_16 "torchao XNNPACK static per-channel"   # a zoo model (bench/zoo_models.py)
    python bench/stage_memory.py --toy                                           # a small CNN, any torch

Each flow runs in its own process (like bench/zoo_child.py). Per step: RSS after it and its own peak (VmHWM,
reset before the step through /proc/self/clear_refs), both above the baseline taken after the model's build.
Ratios lens ÷ bare at the end. Linux only (reads /proc). Numbers only, no assertions.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "kernel_pkg"))
sys.path.insert(0, os.path.dirname(HERE))


def _status(field: str) -> float:
    with open("/proc/self/status") as f:
        line = next(ln for ln in f if ln.startswith(field + ":"))
    return int(line.split()[1]) / 1024


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # resets VmHWM to the current RSS


class Steps:
    def __init__(self) -> None:
        gc.collect()
        self.base = _status("VmRSS")
        self.rows: list[dict] = []

    def step(self, name: str, fn):
        gc.collect()
        _reset_peak()
        out = fn()
        peak = _status("VmHWM")
        gc.collect()
        self.rows.append({"step": name, "peak": peak - self.base, "after": _status("VmRSS") - self.base})
        return out


def _storages(gm) -> dict[int, int]:
    out = {}
    for t in list(gm.state_dict(keep_vars=True).values()) + [
        v for m in gm.modules() for v in vars(m).values() if hasattr(v, "untyped_storage")
    ]:
        s = t.untyped_storage()
        out[s.data_ptr()] = s.nbytes()
    return out


def _model(args: list[str]):
    import torch

    if args[0] == "--toy":
        from torch import nn

        m = nn.Sequential(
            *[nn.Sequential(nn.Conv2d(256, 256, 3, padding=1), nn.BatchNorm2d(256), nn.ReLU()) for _ in range(8)]
        )
        inputs = (torch.randn(1, 256, 16, 16),)
        return m.eval(), inputs, [inputs] * 4
    from bench.zoo_models import build

    return build(args[0])


def child(which: str, args: list[str]) -> None:
    import torch

    import pt2e_lens as pl
    from bench.conformance_cases import _quiet
    from bench.conformance_quantizers import CASES

    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    pl.quiet()
    case = next(c for c in CASES if c.name == (args[1] if len(args) > 1 else "torchao XNNPACK static per-channel"))
    model, inputs, batches = _model(args)
    steps = Steps()
    held: dict = {}
    with _quiet(), torch.no_grad():
        if which == "bare":
            from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

            ep = steps.step("export", lambda: torch.export.export(model, inputs))
            gm = steps.step("module", ep.module)
            prepared = steps.step("prepare", lambda: prepare_pt2e(gm, case.make()))
            steps.step("calibrate", lambda: [prepared(*b) for b in batches])
            held["converted"] = steps.step("convert", lambda: convert_pt2e(prepared))
        else:
            run = steps.step("export (Run)", lambda: pl.Run(model, inputs))
            steps.step("prepare", lambda: run.prepare(case.make()))
            steps.step("calibrate", lambda: run.calibrate(batches))
            steps.step("convert", run.convert)
            steps.step("snapshots read", lambda: [s.snapshot for s in run])
            seen: dict[int, int] = {}
            for s in run:
                if s._graph_module is not None:
                    own = _storages(s._graph_module)
                    new = {k: v for k, v in own.items() if k not in seen}
                    held[s.name] = (
                        f"{sum(own.values()) / 2**20:.0f} MB, {sum(new.values()) / 2**20:.0f} MB not in earlier stages"
                    )
                    seen.update(own)
                else:
                    held[s.name] = "not made"
            ep = run["exported"].exported_program
            if ep is not None:
                held["exported program"] = f"{sum(t.nbytes for t in ep.state_dict.values()) / 2**20:.0f} MB"
    print("RESULT " + json.dumps({"rows": steps.rows, "held": held if which == "lens" else {}}), flush=True)


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] in ("bare", "lens"):
        child(args[0], args[1:])
        return
    got = {}
    for which in ("bare", "lens"):
        proc = subprocess.run([sys.executable, __file__, which, *args], capture_output=True, text=True)
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
        if line is None:
            sys.exit(f"{which} failed:\n{proc.stderr[-2000:]}")
        got[which] = json.loads(line[7:])
    for which, r in got.items():
        print(f"{which}:")
        for row in r["rows"]:
            print(f"  {row['step']:<16} peak {row['peak']:8.0f} MB   after {row['after']:8.0f} MB")
        for name, text in r["held"].items():
            print(f"  held by {name:<18} {text}")
    bare = max(r["peak"] for r in got["bare"]["rows"])
    lens = max(r["peak"] for r in got["lens"]["rows"] if r["step"] != "snapshots read")
    print(f"peak above baseline: bare {bare:.0f} MB, lens {lens:.0f} MB, lens ÷ bare {lens / max(bare, 1):.2f}")


if __name__ == "__main__":
    main()
