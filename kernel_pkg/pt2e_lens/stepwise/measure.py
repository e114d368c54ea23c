"""What the workbench reports of a run: its counts, its output SQNR, its backend's outcomes."""

from __future__ import annotations

from typing import Any

from ..analyses.backend import backend
from ..analyses.counts import node_count
from ..capture import Run
from ..why.sensitivity import forward_all, reference_outputs, sqnr_db


def output_sqnr(run: Run, batches: list[tuple]) -> float | None:
    """End-to-end SQNR (dB) of the converted model against its float reference on `batches`, as pl.recipe
    measures it; None before convert."""
    if "converted" not in run:
        return None
    reference = reference_outputs(run, batches, "pl.workbench")
    return sqnr_db(reference, forward_all(run["converted"].graph_module, batches))


def counts(run: Run) -> dict[str, int]:
    """Observers of the prepared graph, q/dq and nodes of the converted one (those the run has)."""
    out: dict[str, int] = {}
    if "prepared" in run:
        out["observers"] = len(run["prepared"].snapshot.observers)
    if "converted" in run:
        out["qdq"] = len(run["converted"].snapshot.qdq)
        out["nodes"] = node_count(run["converted"])
    return out


def outcomes(run: Run) -> dict[str, int]:
    """The lowered stage's outcome → converted nodes (pl.backend's counts); {} before lowering."""
    if "lowered" not in run:
        return {}
    return dict(backend(run["lowered"]).counts)


def summary(run: Run, sqnr: float | None) -> dict[str, Any]:
    return {"counts": counts(run), "sqnr": sqnr, "outcomes": outcomes(run)}
