"""The snapshot a why-analysis of observers reads: a Run's calibrated, trained or prepared stage, or the graph given."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..analyses.quantization import OBSERVER_STAGES
from ..analyses.source import snapshot
from ..capture import Run, Stage
from ..errors import Pt2eLensError
from ..snapshot import Snapshot


def observed_stage(run: Run) -> Stage:
    """The stage of a Run whose observers saw the most: calibrated, else trained (QAT), else prepared
    (a Run without any: the Run's own one line that it has no 'prepared' stage)."""
    return run[next((s for s in OBSERVER_STAGES if s in run.stages), "prepared")]


def observed_snapshot(x: Any, what: str) -> Snapshot:
    """The snapshot of a graph with observers: a Run's observed_stage, or x itself."""
    if isinstance(x, Run):
        if not any(s in x.stages for s in OBSERVER_STAGES):
            raise Pt2eLensError(i18n.t("error.needs_prepared", what=what))
        x = observed_stage(x)
    snap = snapshot(x)
    if not snap.observers and snap.annotations and snap.stage not in (None, *OBSERVER_STAGES):
        raise Pt2eLensError(i18n.t("error.stage_has_no_observers", what=what, stage=repr(snap.stage)))
    return snap
