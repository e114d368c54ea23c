"""Per-channel ranges of a weight observer, summed up for the snapshot (`channels` of an observer entry).

One channel whose range is many times the median (an outlier) sets a per-tensor scale for all of them:
the other channels then get only a few of the 256 int8 levels. A per-channel observer shows this in its
own min/max; for a per-tensor weight observer we read the weight tensor itself along axis 0.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import torch

from ..schema.numbers import json_number

OUTLIER_RATIO = 20.0  # a channel range this many times the median: the per-tensor scale collapses


def channel_ranges(mod: Any, gm: torch.fx.GraphModule, observed: torch.fx.Node) -> tuple[str, torch.Tensor] | None:
    """(source, range per channel) from the observer's per-channel min/max, else from the weight it watches."""
    inner = getattr(mod, "activation_post_process", mod)
    lo, hi = getattr(inner, "min_val", None), getattr(inner, "max_val", None)
    if isinstance(lo, torch.Tensor) and isinstance(hi, torch.Tensor) and lo.numel() > 1 and lo.shape == hi.shape:
        if bool(torch.isfinite(lo).all()) and bool(torch.isfinite(hi).all()):
            return "observer", (hi - lo).detach().float().reshape(-1)
    if observed.op != "get_attr":
        return None
    try:
        w = operator.attrgetter(str(observed.target))(gm)
    except AttributeError:
        return None
    if not isinstance(w, torch.Tensor) or not w.is_floating_point() or w.dim() < 2:
        return None
    w = w.detach().float().reshape(w.shape[0], -1)
    return "weight", w.amax(dim=1) - w.amin(dim=1)


def summary(source: str, ranges: torch.Tensor) -> dict:
    median = float(ranges.median())
    worst = int(ranges.argmax())
    top = float(ranges[worst])
    ratio = top / median if median > 0 else (math.inf if top > 0 else math.nan)
    return {
        "count": int(ranges.numel()),
        "source": source,
        "median_range": median,
        "max_range": top,
        "worst": worst,
        "ratio": json_number(ratio),
        "outlier": bool(ratio >= OUTLIER_RATIO),  # NaN (every channel empty) is no outlier
    }


def channels_field(mod: Any, gm: torch.fx.GraphModule, observed: torch.fx.Node) -> dict:
    """`{"channels": summary}` when the observer has channels to compare, else `{}` (the field is optional)."""
    found = channel_ranges(mod, gm, observed)
    return {} if found is None else {"channels": summary(*found)}
