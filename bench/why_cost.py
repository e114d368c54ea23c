"""What `Node.why` costs: annotate with the annotator log vs with the plain watched meta vs bare; snapshot
build with the why lines vs without; JSON and packed size. Ratios of medians of 7, process CPU time (the
timed pieces are tens of ms: wall time on a shared machine is mostly other people's work).

    python bench/why_cost.py
    PYTHONPATH=<another checkout>/kernel_pkg python bench/why_cost.py   # the same on another pt2e_lens
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (  # noqa: E402
    X86InductorQuantizer,
    get_default_x86_inductor_quantization_config,
)
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config  # noqa: E402

import pt2e_lens as pl  # noqa: E402
import pt2e_lens.prepare.watched_annotators as annotators  # noqa: E402
from bench.models import build  # noqa: E402
from pt2e_lens._copy import private_copy  # noqa: E402
from pt2e_lens.analyses.findings import with_findings  # noqa: E402
from pt2e_lens.analyses.why_lines import with_why  # noqa: E402
from pt2e_lens.prepare.annotate import WatchingRecorder  # noqa: E402
from pt2e_lens.schema.packed import pack  # noqa: E402
from pt2e_lens.snapshot import build as build_snapshot  # noqa: E402

CASES = [
    ("resnet", 40, lambda: XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))),
    ("transformer", 20, lambda: X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())),
]


def median(fn, n: int = 7) -> float:
    return statistics.median(fn() for _ in range(n))


def annotate_seconds(gm, make, watch: bool) -> float:
    g, q = private_copy(gm), make()
    g = q.transform_for_annotation(g)
    t = time.process_time()
    (WatchingRecorder(q, lambda m: None).annotate if watch else q.annotate)(g)
    return time.process_time() - t


def measure(kind: str, n: int, make) -> None:
    note = annotators.AnnotatorLog.note
    model, inputs = build(kind, n)
    gm = torch.export.export(model, inputs).module()
    bare = median(lambda: annotate_seconds(gm, make, False))
    logged = median(lambda: annotate_seconds(gm, make, True))
    annotators.AnnotatorLog.note = lambda self, *args: None  # the watched meta without the log
    unlogged = median(lambda: annotate_seconds(gm, make, True))
    annotators.AnnotatorLog.note = note
    stage = pl.Run(model, inputs).prepare(make())["prepared"]

    def snap(why: bool):
        s = with_findings(build_snapshot(stage.graph_module, "prepared", stage.record), stage.record.problems)
        return with_why(s, stage.record.annotators) if why else s

    def timed(why: bool) -> float:
        t = time.process_time()
        snap(why)
        return time.process_time() - t

    plain, why = median(lambda: timed(False)), median(lambda: timed(True))
    j0, j1 = len(snap(False).to_json()), len(snap(True).to_json())
    p0, p1 = (len(json.dumps(pack({"s": snap(w).data}))) for w in (False, True))
    print(
        f"{kind}-{n} ({len(stage.snapshot.nodes)} nodes): annotate logged/unlogged {logged / unlogged:.2f}, "
        f"unlogged/bare {unlogged / bare:.2f}; snapshot with why/without {why / plain:.2f}; "
        f"JSON {j1 / j0:.2f}x, packed {p1 / p0:.2f}x"
    )


def main() -> None:
    pl.quiet()
    for case in CASES:
        measure(*case)


if __name__ == "__main__":
    main()
