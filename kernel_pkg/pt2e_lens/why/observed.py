"""The snapshot a why-analysis of observers reads: a Run's calibrated or prepared stage, or the graph given."""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..analyses.source import snapshot
from ..capture import Run
from ..errors import Pt2eLensError
from ..snapshot import Snapshot

_OBSERVED = ("calibrated", "trained", "prepared")


def observed_snapshot(x: Any, what: str) -> Snapshot:
    """The snapshot of a graph with observers: a Run's calibrated/prepared stage, or x itself."""
    if isinstance(x, Run):
        name = next((s for s in _OBSERVED if s in x.stages), None)
        if name is None:
            raise Pt2eLensError(i18n.t("error.needs_prepared", what=what))
        x = x[name]
    snap = snapshot(x)
    if not snap.observers and snap.annotations and snap.stage not in (None, *_OBSERVED):
        raise Pt2eLensError(i18n.t("error.stage_has_no_observers", what=what, stage=repr(snap.stage)))
    return snap
