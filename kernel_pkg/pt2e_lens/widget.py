"""The anywidget front end: the same View, rendered live by `src/widget` through a synced trait."""
from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

import anywidget
import traitlets

from ._static import STATIC, bundle
from .display import html_fragment, MIME, summary
from .views import compare_view, graph_view, view_of

_MISSING_ESM = """
export default { render({ el }) {
  el.textContent = "pt2e-lens: the front end is not built (run `npm run build` or `pip install .`).";
} };
"""


class LensWidget(anywidget.AnyWidget):
    """Shows one View. Its MIME bundle also carries the static forms, so a saved notebook still shows it."""

    _esm = STATIC / "widget.js" if bundle("widget.js") is not None else _MISSING_ESM
    view_json = traitlets.Unicode("").tag(sync=True)

    def __init__(self, view: dict, **kwargs: Any):
        super().__init__(view_json=json.dumps(view, allow_nan=False), **kwargs)
        self.view = view

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs) or {}
        if isinstance(data, tuple):
            data = data[0]
        return {**data, MIME: self.view, "text/html": html_fragment(self.view), "text/plain": summary(self.view)}

    def __repr__(self) -> str:
        return summary(self.view)


def show(x: Any, focus: str | Iterable[str] | None = None, hops: int = 1,
         notes: dict | None = None, title: str | None = None) -> LensWidget:
    """Draw a Run (tabs per stage), Stage, GraphModule or ExportedProgram; `focus` ops ± `hops`."""
    if focus is None and notes is None and title is None:
        return LensWidget(view_of(x))
    return LensWidget(graph_view(x, focus=focus, hops=hops, notes=notes, title=title))


def compare(items: Sequence[Any], focus: str | Iterable[str] | None = None, hops: int = 1,
            notes: Sequence[dict] | None = None, title: str | None = None) -> LensWidget:
    """2..N graphs side by side: `[(x1, "label"), (x2, "label"), …]` (the course's `draw_stages`)."""
    return LensWidget(compare_view(items, focus=focus, hops=hops, notes=notes, title=title))
