"""`pl.observer_ranges(x)`: per-channel ranges of the weight (and other per-channel) observers, outliers first.

Reads the `channels` summary every snapshot carries for such observers (see `snapshot.channels`): a channel
whose range is ≥ 20× the median is an outlier, and a per-tensor scale fitted to it leaves the other channels
only a few int8 levels (what `pl.sensitivity` then shows as that weight's site ruining the SQNR).
"""

from __future__ import annotations

import math
from typing import Any

from .. import i18n
from ..errors import Pt2eLensError
from ..snapshot.channels import OUTLIER_RATIO
from .source import snapshot
from .table import Table

COLUMNS = [
    "observer",
    "observes",
    "qscheme",
    "source",
    "channels",
    "median_range",
    "max_range",
    "worst_channel",
    "ratio",
    "outlier",
    "min",
    "max",
]


def _number(v: Any) -> float:
    return float(v) if not isinstance(v, str) else float(v.replace("Infinity", "inf"))


def observer_ranges(x: Any) -> Table:
    """One row per observer with channels (a Stage/graph after prepare or calibration), widest ratio first."""
    snap = snapshot(x)
    if not snap.observers:
        raise Pt2eLensError(i18n.t("sensitivity.ranges_needs_observers", got=snap.stage or type(x).__name__))
    rows = []
    for o in snap.observers:
        c = o.get("channels")
        if c is None:
            continue
        ratio = _number(c["ratio"])
        per_channel = c["source"] == "observer"
        rows.append(
            (
                o["id"],
                o["observes"],
                o["qscheme"],
                c["source"],
                c["count"],
                c["median_range"],
                c["max_range"],
                c["worst"],
                ratio,
                c["outlier"],
                o["min"] if per_channel else None,
                o["max"] if per_channel else None,
            )
        )
    rows.sort(key=lambda r: (math.isnan(r[8]), -r[8] if not math.isnan(r[8]) else 0.0, r[0]))
    return Table("observer_ranges", COLUMNS, rows, title=i18n.t("sensitivity.ranges_table", ratio=f"{OUTLIER_RATIO:g}"))
