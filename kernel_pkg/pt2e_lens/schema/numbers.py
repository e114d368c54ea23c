"""Numbers JSON cannot hold: the contract writes them as strings ($defs.NonFinite of view.schema.json)."""

from __future__ import annotations

import math


def json_number(v: float) -> float | str:
    """`v` if finite, else `"Infinity"`, `"-Infinity"` or `"NaN"` (JavaScript's own names: `Number(s)` reads them)."""
    if math.isfinite(v):
        return v
    if math.isnan(v):
        return "NaN"
    return "Infinity" if v > 0 else "-Infinity"
