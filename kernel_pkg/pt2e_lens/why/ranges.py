"""`pl.observer_ranges(x)` for a Run too: its calibrated stage (or trained, or prepared) holds the observers."""

from __future__ import annotations

from typing import Any

from ..analyses.observer_ranges import observer_ranges as ranges_of
from ..analyses.table import Table
from ..capture import Run
from .observed import observed_stage


def observer_ranges(x: Any) -> Table:
    """Per-channel ranges of weight / per-channel observers, outliers (≥ 20× the median range) first."""
    if isinstance(x, Run):
        x = observed_stage(x)
    return ranges_of(x)
