"""`pl.sensitivity`: how much each quantized site costs the model's output, one site at a time.

For every site (a sharing group's q/dq, see `sites`) two end-to-end numbers against the float model: the
output SQNR when that site alone stays fp32 (what keeping it fp32 would buy) and when only that site is
quantized (what it costs on its own). Both come from one gated private copy of the converted module, so
a sweep is one forward per configuration: no re-prepare, no re-calibration, no copy per site. With an
`executor` (any `concurrent.futures.Executor`: a process or thread pool, a Dask or Ray client's executor) the
configurations are split into chunks and each chunk runs on a worker from the pickled gated copy (in a thread
pool: one copy per thread, unpickled one thread at a time, see `_TRACING`).
"""

from __future__ import annotations

import hashlib
import math
import pickle
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

import torch

from .. import i18n
from .._progress import task
from ..analyses.table import Table
from ..capture import Run
from ..errors import Pt2eLensError, first_line
from ..schema.numbers import json_number
from .observed import observed_stage
from .reference import Reference, float_reference
from .sites import UNITS, GatedModule, Site, gated, units_of
from .sweep_args import (
    check_count,
    check_executor,
    check_flag,
    check_iterable,
    check_metric,
    metric_value,
    submit_all,
    warn_non_finite,
)

COLUMNS = ["site", "tensor", "serves", "kind", "sqnr_fp32_db", "gain_db", "sqnr_only_db"]
METRIC_COLUMNS = ["metric_fp32", "metric_only"]

Metric = Callable[[Any, Any], float]


def leaves(out: Any) -> list[torch.Tensor]:
    """The tensors of a model output (a tensor, or tuples / lists / dicts of them), in a fixed order."""
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, dict):
        return [t for k in sorted(out, key=str) for t in leaves(out[k])]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in leaves(o)]
    return []


def db_text(db: float) -> str:
    """An SQNR as a title says it: two decimals in dB, an exact match (inf) as "identical" (issue 26.4)."""
    return i18n.t("sensitivity.identical") if db == math.inf else i18n.t("sensitivity.db", db=f"{db:.2f}")


def sqnr_db(reference: Sequence[Any], outputs: Sequence[Any]) -> float:
    """End-to-end SQNR (dB) over every batch together: 10·log10(Σ ref² / Σ (ref − out)²); inf for an exact match."""
    signal = noise = 0.0
    for ref, out in zip(reference, outputs):
        for r, o in zip(leaves(ref), leaves(out)):
            r, o = r.detach().double(), o.detach().double()
            signal += float((r * r).sum())
            noise += float(((r - o) ** 2).sum())
    if noise == 0.0:
        return math.inf if signal > 0 else math.nan
    if not math.isfinite(noise):
        return math.nan
    return 10.0 * math.log10(signal / noise) if signal > 0 else -math.inf


def batches_of(batches: Iterable[Any], who: str) -> list[tuple]:
    check_iterable(batches, who)
    out = [tuple(b) if isinstance(b, (tuple, list)) else (b,) for b in batches]
    if not out:
        raise Pt2eLensError(i18n.t("sensitivity.no_batches", who=who))
    warn_non_finite(out, who)
    return out


def forward_all(gm: torch.nn.Module, batches: Sequence[tuple]) -> list[Any]:
    with torch.no_grad():
        return [gm(*b) for b in batches]


def evaluate(
    gm: GatedModule,
    batches: Sequence[tuple],
    reference: Sequence[Any],
    configs: Sequence[Sequence[int]],
    metric=None,
    evaluated: Callable[[int], None] = lambda n: None,
) -> list[tuple[float, float | None]]:
    """(SQNR dB, metric) for each configuration: the indices of the sites that stay fp32."""
    out = []
    for off in configs:
        gm.set_off(off)
        gm.reset_buffers()
        outputs = forward_all(gm.module, batches)
        value = None
        if metric is not None:
            value = sum(metric_value(metric, r, o, "metric") for r, o in zip(reference, outputs)) / len(outputs)
        out.append((sqnr_db(reference, outputs), value))
        evaluated(1)  # progress: one more configuration
    gm.set_off(())
    return out


def evaluate_fastest(
    gm: GatedModule,
    batches: Sequence[tuple],
    reference: Sequence[Any],
    configs: Sequence[Sequence[int]],
    metric=None,
    evaluated: Callable[[int], None] = lambda n: None,
) -> list[tuple[float, float | None]]:
    """`evaluate` at the torch thread count that runs it fastest on this machine now: the first configurations
    are timed at one thread and at torch's own count, the rest run at the faster (on a busy 2-core machine one
    thread was 16× faster; on a quiet one torch's count wins). Torch's count is restored afterwards."""
    own = torch.get_num_threads()
    candidates = [1, own] if own > 1 and len(configs) > 4 else []
    out: list[tuple[float, float | None]] = []
    took: dict[int, float] = {}
    try:
        for threads, config in zip(candidates, configs):
            torch.set_num_threads(threads)
            start = time.perf_counter()
            out += evaluate(gm, batches, reference, [config], metric, evaluated)
            took[threads] = time.perf_counter() - start
        if took:
            torch.set_num_threads(min(took, key=lambda k: took[k]))
        out += evaluate(gm, batches, reference, configs[len(out) :], metric, evaluated)
    finally:
        torch.set_num_threads(own)
    return out


# A worker's last payload, per thread: its next chunk of the same sweep skips unpickling, and each thread of a
# thread pool has its own gated copy (a sweep switches its gates). One sweep at a time: one model per thread.
_LOCAL = threading.local()


class _Exclusive:
    """A readers-writer lock: many forwards at once (`shared`), or one unpickling (`alone`), which goes first."""

    def __init__(self):
        self._cond = threading.Condition()
        self._readers = 0
        self._writing = False
        self._waiting = 0

    @contextmanager
    def shared(self):
        with self._cond:
            self._cond.wait_for(lambda: not self._writing and not self._waiting)
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def alone(self):
        with self._cond:
            self._waiting += 1
            self._cond.wait_for(lambda: not self._writing and not self._readers)
            self._waiting -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


# Unpickling a GraphModule traces it, and torch.fx's tracer patches torch.nn.Module.__call__ for the whole
# process while it does: two threads tracing at once leave it patched for good, and a forward in another thread
# meanwhile goes through the tracer. So a thread unpickles alone, while no other worker thread runs a forward.
_TRACING = _Exclusive()
_THREADS_LOCK = threading.Lock()
_threads = {"users": 0, "before": 0}  # torch's thread count is per process: set by the first, restored by the last


def _unpickled(payload: bytes) -> tuple:
    key = hashlib.sha1(payload).digest()
    cached = getattr(_LOCAL, "payload", None)
    if cached is None or cached[0] != key:
        _LOCAL.payload = None  # free the previous sweep's copy first
        with _TRACING.alone():
            _LOCAL.payload = (key, pickle.loads(payload))
    return _LOCAL.payload[1]


@contextmanager
def _torch_threads(threads: int | None):
    """torch.set_num_threads(threads) while any worker of this process runs a chunk; then what it was."""
    if not threads:
        yield
        return
    with _THREADS_LOCK:
        if _threads["users"] == 0:
            _threads["before"] = torch.get_num_threads()
            torch.set_num_threads(threads)  # two workers on two cores: one thread each, not four
        _threads["users"] += 1
    try:
        yield
    finally:
        with _THREADS_LOCK:
            _threads["users"] -= 1
            if _threads["users"] == 0:
                torch.set_num_threads(_threads["before"])


def _work(payload: bytes, configs: list[list[int]], metric: Metric | None, threads: int | None) -> list:
    """One chunk on a worker: the gated copy, the batches and the float outputs come pickled in `payload`."""
    gm, batches, reference = _unpickled(payload)
    with _torch_threads(threads), _TRACING.shared():
        return evaluate(gm, batches, reference, configs, metric)


def payload_of(gm: GatedModule, batches: Sequence[tuple], reference: Sequence[Any]) -> bytes:
    """What a worker needs, pickled once: the gated GraphModule (code, weights, q/dq), the batches, the float outputs."""
    return pickle.dumps((gm, list(batches), list(reference)))


def run_configs(
    gm: GatedModule,
    batches: Sequence[tuple],
    reference: Sequence[Any],
    configs: list[list[int]],
    metric: Metric | None = None,
    executor: Executor | None = None,
    chunks: int | None = None,
    worker_threads: int | None = 1,
    evaluated: Callable[[int], None] = lambda n: None,
) -> list[tuple[float, float | None]]:
    if executor is None:
        return evaluate_fastest(gm, batches, reference, configs, metric, evaluated)
    payload = payload_of(gm, batches, reference)
    n = max(1, min(len(configs), chunks or 8))
    parts = [configs[i::n] for i in range(n)]  # interleaved: cheap and dear configurations mix evenly
    done = submit_all(executor, _work, [(payload, part, metric, worker_threads) for part in parts])
    results: list[Any] = [None] * len(configs)
    for i, values in enumerate(done):
        for j, value in enumerate(values):
            results[i + j * n] = value
        evaluated(len(parts[i]))
    return results


class Sensitivity(Table):
    """One row per site, the site that hurts most first (non-finite SQNRs last); a heat overlay on its q/dq."""

    def __init__(
        self,
        rows: list[tuple],
        sites: list[Site],
        baseline_db: float,
        stage: Any = None,
        metric=False,
        by="group",
        reference: Reference | None = None,
    ):
        def rank(r: tuple) -> tuple:
            fp32 = r[4]
            finite = fp32 is not None and math.isfinite(fp32)
            return (not finite, -(fp32 if finite else 0.0), r[0])

        order = sorted(range(len(rows)), key=lambda i: rank(rows[i]))
        columns = COLUMNS + (METRIC_COLUMNS if metric else [])
        title = i18n.t("sensitivity.table", baseline=db_text(baseline_db))
        title = reference.title(title) if reference else title
        super().__init__("sensitivity", columns, [rows[i] for i in order], title=title)
        self.reference = reference  # the float side of every SQNR (why/reference.py)
        self.sites = [sites[i] for i in order]  # in row order
        self.baseline_db = baseline_db  # every site quantized
        self.by = by  # what a site is: "group", "op" or "module"
        self.stage = stage  # the converted stage: displayed with the heat overlay

    def overlay(self) -> dict:
        """The contract's Overlay: each site's gain (dB of output SQNR it gives back in fp32) on its q/dq nodes."""
        values = {}
        for site, row in zip(self.sites, self.rows):
            if row[5] is not None:
                values.update({name: json_number(row[5]) for name in site.qdq})
        return {"name": "sensitivity", "unit": "dB", "higher_is_better": False, "values": values}


def check_run(run: Any, who: str) -> None:
    if not (isinstance(run, Run) and "converted" in run.stages):
        raise Pt2eLensError(i18n.t("sensitivity.not_converted", who=who))


def reference_outputs(run: Run, batches: list[tuple], who: str) -> list[Any]:
    """The float reference's outputs (for QAT the trained model with fake-quant off: why/reference.py)."""
    module = float_reference(run).module(who)  # its own copy: a forward may write buffers
    try:
        return forward_all(module, batches)
    except Exception as e:
        raise Pt2eLensError(
            i18n.t("sensitivity.batches_failed", who=who, error=type(e).__name__, reason=first_line(e)),
            original=e,
        ) from None


def kind_of(site: Site, by: str) -> str:
    if by != "group" and len(site.groups) > 1:
        return f"{by} ({len(site.groups)} groups)"
    return "weight" if site.weight else "activation"


def sensitivity(
    run: Any,
    batches: Iterable[Any],
    metric: Metric | None = None,
    only: bool = True,
    executor: Executor | None = None,
    chunks: int | None = None,
    by: str = "group",
    worker_threads: int | None = 1,
) -> Sensitivity:
    """Per site: output SQNR (and `metric(outputs_float, outputs_quant)`, averaged over batches) with that site
    alone in fp32, and (`only=True`) with only that site quantized. `by`: a site is a sharing group ("group"),
    an annotated op ("op") or a module ("module"). `executor`: run the sweep on its workers, in `chunks` tasks,
    each with `worker_threads` torch threads (None: the worker's default)."""
    check_run(run, "pl.sensitivity")
    check_flag(only, "only", "pl.sensitivity")
    check_executor(executor, "pl.sensitivity")
    check_count(chunks, "chunks", "pl.sensitivity", 1)
    check_count(worker_threads, "worker_threads", "pl.sensitivity", 1)
    if by not in UNITS:
        raise Pt2eLensError(i18n.t("sensitivity.bad_by", got=repr(by), choices=", ".join(UNITS)))
    batches = batches_of(batches, "pl.sensitivity")
    reference = reference_outputs(run, batches, "pl.sensitivity")
    check_metric(metric, reference, "pl.sensitivity")
    gm = gated(run)
    units = units_of(gm.sites, by, observed_stage(run).snapshot.node)
    index = {s.id: i for i, s in enumerate(gm.sites)}
    offs = [[index[g] for g in u.groups] for u in units]
    n = len(units)
    configs: list[list[int]] = [[]] + offs
    if only:
        configs += [[j for j in range(len(gm.sites)) if j not in off] for off in offs]
    label, unit = i18n.t("progress.sensitivity"), i18n.t("progress.unit.configs")
    with task(label, len(configs), unit) as shown:
        results = run_configs(gm, batches, reference, configs, metric, executor, chunks, worker_threads, shown.advance)
    baseline = results[0][0]
    rows = []
    for i, site in enumerate(units):
        fp32, m_fp32 = results[1 + i]
        only_db, m_only = results[1 + n + i] if only else (None, None)
        gain = fp32 - baseline if math.isfinite(fp32) and math.isfinite(baseline) else None
        row: tuple = (site.id, site.tensor, site.serves, kind_of(site, by), fp32, gain, only_db)
        rows.append(row + ((m_fp32, m_only) if metric is not None else ()))
    return Sensitivity(rows, units, baseline, run["converted"], metric is not None, by, float_reference(run))
