"""`pl.show(x, overlay=…)`: checked when given, not when a host draws it — a wrong overlay is one line
here instead of "malformed output" in every host; NaN/±inf become the contract's NonFinite strings."""

from __future__ import annotations

import math
from typing import Any

from . import i18n
from .errors import Pt2eLensError
from .schema import VIEW_SCHEMA
from .schema.check import schema_error
from .schema.numbers import json_number
from .why import Accuracy
from .why.sensitivity import Sensitivity


def overlay_of(overlay: Any) -> dict:
    if isinstance(overlay, (Accuracy, Sensitivity)):  # both carry a heat overlay of their own
        return overlay.overlay()
    if not isinstance(overlay, dict):
        raise Pt2eLensError(i18n.t("error.guard_overlay_type", got=f"{overlay!r:.40} (a {type(overlay).__name__})"))
    values = overlay.get("values")
    if isinstance(values, dict):
        finite = {k: json_number(v) if isinstance(v, float) and not math.isfinite(v) else v for k, v in values.items()}
        overlay = {**overlay, "values": finite}
    problem = schema_error(overlay, VIEW_SCHEMA, "Overlay", root="overlay")
    if problem:
        raise Pt2eLensError(i18n.t("error.guard_overlay_shape", problem=problem))
    return overlay
