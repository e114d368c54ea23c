"""The display objects the magics return: the Python API's (`pl.show`, `pl.compare`, the report writer)
when this pt2e_lens has them, else a minimal View output so the magics work on their own."""
from __future__ import annotations

from typing import Any, Sequence

from .. import analyses
from ..capture import Run
from ..errors import Pt2eLensError
from ..snapshot import snapshot
from . import views

MIME = "application/vnd.pt2e-lens.v1+json"


def _api(name: str):
    import pt2e_lens

    return getattr(pt2e_lens, name, None)


class ViewOutput:
    def __init__(self, doc: dict):
        self.view = doc

    def _repr_mimebundle_(self, include=None, exclude=None):
        labels = ", ".join(p["label"] for p in self.view["panes"])
        return {MIME: self.view, "text/plain": f"<pt2e-lens {self.view['mode']} view: {labels}>"}


def _panes(x: Any, label: str) -> list[tuple[str, Any]]:
    return [(s.name, s) for s in x] if isinstance(x, Run) else [(label, x)]


def _view(mode: str, panes: list[tuple[str, Any]], focus, hops: int, title: str | None) -> ViewOutput:
    snaps = [(label, snapshot(x)) for label, x in panes]
    diffs = [analyses.stage_diff(a, b).to_dict(i, i + 1) for i, ((_, a), (_, b)) in enumerate(zip(snaps, snaps[1:]))]
    doc = views.view(mode, snaps, title, diffs=diffs)
    if focus:
        doc["focus"] = [analyses.focus(s, focus, hops) for _, s in snaps]
    return ViewOutput(doc)


def show(x: Any, focus: Sequence[str] | None = None, hops: int = 1, title: str | None = None):
    api = _api("show")
    if api is not None:
        return api(x, focus=focus, hops=hops, title=title)
    panes = _panes(x, title or "graph")
    return _view("run" if isinstance(x, Run) else "graph", panes, focus, hops, title)


def compare(xs: Sequence[Any], labels: Sequence[str], focus=None, hops: int = 1, title: str | None = None):
    api = _api("compare")
    if api is not None:
        return api(*xs, labels=list(labels), focus=focus, hops=hops, title=title)
    return _view("compare", list(zip(labels, xs)), focus, hops, title)


def write_report(x: Any, path: str) -> str:
    report = _api("report")
    write_html = getattr(report, "write_html", None)
    if write_html is None:
        raise Pt2eLensError("this pt2e-lens has no HTML report writer yet (pt2e_lens.report.write_html).")
    write_html(x, path)
    return path
