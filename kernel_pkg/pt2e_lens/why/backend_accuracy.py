"""`pl.accuracy(run, batches, backend="inductor")`: per output, how far the reference-quantized module (the
converted graph, run eagerly) and what the backend really computes (its compiled module or program) are
from the float model, and from each other. A gap between the two quantized columns is the backend's own
numerics (fused requantization, int8 accumulation), not the quantizer's."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import torch
from torch.utils._pytree import tree_leaves

from .. import i18n
from ..analyses.table import Table
from ..capture import Run
from ..errors import Pt2eLensError, first_line
from .reference import Reference, float_reference

COLUMNS = ["output", "sqnr_converted_db", "sqnr_backend_db", "sqnr_backend_vs_converted_db", "batches"]


class BackendAccuracy(Table):
    """One row per output; `reference` is the float side of every column (why/reference.py)."""

    def __init__(self, rows: list[tuple], backend: str, reference: Reference):
        title = reference.title(i18n.t("table.backend_accuracy", backend=backend))
        super().__init__("backend_accuracy", COLUMNS, rows, title=title)
        self.reference = reference


def sqnr(ref: torch.Tensor, x: torch.Tensor) -> float:
    """Signal-to-quantization-noise ratio in dB (inf for an exact match)."""
    ref, x = ref.detach().double().flatten(), x.detach().double().flatten()
    noise = torch.linalg.vector_norm(ref - x).item()
    signal = torch.linalg.vector_norm(ref).item()
    if noise == 0:
        return math.inf
    return 20 * math.log10(signal / noise) if signal > 0 else -math.inf


def _outputs(fn: Any, batch: tuple) -> list[torch.Tensor]:
    with torch.no_grad():
        return [t for t in tree_leaves(fn(*batch)) if isinstance(t, torch.Tensor) and t.is_floating_point()]


def backend_accuracy(run: Any, batches: Iterable[Any], backend: str = "inductor") -> Table:
    """One row per float output: SQNR float→converted, float→backend, converted→backend (dB, mean over batches)."""
    if not (isinstance(run, Run) and "converted" in run.stages):
        raise Pt2eLensError(i18n.t("error.accuracy_not_converted"))
    batch_list = [tuple(b) if isinstance(b, (tuple, list)) else (b,) for b in batches]
    if not batch_list:
        raise Pt2eLensError(i18n.t("error.accuracy_no_batches"))
    lowered = run["lowered"] if "lowered" in run else None
    if lowered is None or lowered.info.get("backend") != backend:
        run.lower(backend)  # the lowering the numbers describe becomes the run's lowered stage
        lowered = run["lowered"]
    reference = float_reference(run)  # for QAT the trained model with fake-quant off, as pl.accuracy's
    float_gm = reference.module("pl.accuracy")
    converted = run["converted"].graph_module
    runner = lowered.backend.runner  # type: ignore[attr-defined]
    # output index -> (float→converted, float→backend, converted→backend) per batch
    per_output: dict[int, tuple[list[float], list[float], list[float]]] = {}
    try:
        for b in batch_list:
            ref, conv, got = _outputs(float_gm, b), _outputs(converted, b), _outputs(runner, b)
            for i, (r, c, g) in enumerate(zip(ref, conv, got)):
                cols = per_output.setdefault(i, ([], [], []))
                for col, v in zip(cols, (sqnr(r, c), sqnr(r, g), sqnr(c, g))):
                    col.append(v)
    except Exception as e:
        raise Pt2eLensError(
            i18n.t("error.accuracy_batches_failed", error=type(e).__name__, reason=first_line(e)), original=e
        ) from None
    rows = [(f"output {i}", *(_mean(v) for v in cols), len(batch_list)) for i, cols in per_output.items()]
    return BackendAccuracy(rows, backend, reference)


def _mean(vals: list[float]) -> float:
    """The mean over batches; an exact match in every batch stays inf (finite batches average alone)."""
    finite = [v for v in vals if math.isfinite(v)]
    return sum(finite) / len(finite) if finite else vals[0]
