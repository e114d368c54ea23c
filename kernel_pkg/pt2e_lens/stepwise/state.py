"""What the workbench widget draws besides the graph: one JSON-able dict, every text already in the locale.

The front end only places these texts (textContent, never HTML), so a node named `<img onerror=…>` stays text.
"""

from __future__ import annotations

import math
from typing import Any

from .. import i18n
from ..errors import Pt2eLensError
from ..prepare.presets import PRESETS
from .steps import STEPS

_TEXTS = (
    "run_all",
    "cancel",
    "rerun",
    "keep_fp32",
    "quantize",
    "quantizer",
    "title",
    "recipe",
    "accept_all",
    "target",
    "kernel_gone",
)


def _number(x: Any) -> Any:
    if isinstance(x, float):
        return None if math.isnan(x) else "∞" if x == math.inf else round(x, 2)
    return x


def state(wb: Any, comparison: Any = None) -> dict[str, Any]:
    total = len(wb.batches)
    nxt = wb.next_step
    cancelling = wb.running is not None and wb._cancel
    if cancelling:  # heard: a calibration stops after the batch under way, any other step at once
        status = i18n.t("workbench.cancelling", step=i18n.t(f"workbench.step.{wb.running}"))
    elif wb.running == "calibrate":
        status = i18n.t("workbench.calibrating", seen=wb.seen, total=total)
    elif wb.running is not None:
        status = i18n.t("workbench.running", step=i18n.t(f"workbench.step.{wb.running}"))
    elif nxt is None:
        status = i18n.t("workbench.all_done")
    else:
        done = ", ".join(i18n.t(f"workbench.step.{s}") for s in wb.done) or "—"
        status = i18n.t("workbench.status", done=done, next=i18n.t(f"workbench.step.{nxt}"))
    sqnr = None
    if wb.run is not None and "converted" in wb.run and wb.running is None:
        try:
            sqnr = wb.sqnr
        except Pt2eLensError:  # the float model failed on the batches: the headline leaves it out
            sqnr = None
    presets = [{"name": p.name, "label": p.label} for p in PRESETS.values()]
    if wb.preset is None:
        own = type(wb._user_quantizer).__name__
        presets.insert(0, {"name": "", "label": i18n.t("workbench.preset.own", name=own)})
    picks = [p.label for p in wb.picks]
    return {
        "steps": [
            {"name": s, "label": i18n.t(f"workbench.step.{s}"), "done": s in wb.done, "running": s == wb.running}
            for s in STEPS
        ],
        "next": nxt,
        "running": wb.running,
        "cancelling": cancelling,
        "error": wb.error,
        "status": status,
        "progress": [wb.seen, total] if wb.running == "calibrate" else None,
        "presets": presets,
        "preset": wb.preset or "",
        "picks": picks,
        "picks_text": i18n.t("workbench.picks", picks=", ".join(picks)) if picks else i18n.t("workbench.no_picks"),
        "sqnr": i18n.t("workbench.sqnr", sqnr=f"{sqnr:.2f}") if sqnr is not None and math.isfinite(sqnr) else None,
        "comparison": None
        if comparison is None
        else {
            "title": comparison.title,
            "columns": [i18n.t("workbench.measure_column")]
            + [i18n.t("workbench.previous"), i18n.t("workbench.current")],
            "rows": [[str(r[0]), _number(r[1]), _number(r[2])] for r in comparison.rows],
        },
        "offered": None
        if wb.offered is None
        else {
            "title": wb.offered.title,
            "sites": [{"id": site.id, "text": f"{site.id} · {site.tensor}"} for site in wb.offered.sites],
        },
        "can_recipe": wb.run is not None and "converted" in wb.run,
        "code": wb.code,
        "texts": {k: i18n.t(f"workbench.{k}") for k in _TEXTS},
        "locale": i18n.get_locale(),
    }
