"""The anywidget front end: the same View, rendered live by `src/widget` through a synced trait."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import anywidget
import traitlets

from ._static import STATIC, bundle
from .display import bundle_of, show, summary
from .schema.packed import pack

_MISSING_ESM = """
export default { render({ el }) {
  el.textContent = "pt2e-lens: the front end is not built (run `npm run build` or `pip install .`).";
} };
"""


class LensWidget(anywidget.AnyWidget):
    """Shows one View, live: `update()` redraws it. Its MIME bundle also carries the static forms, for hosts
    with no widget manager."""

    _esm = STATIC / "widget.js" if bundle("widget.js") is not None else _MISSING_ESM
    view_json = traitlets.Unicode("").tag(sync=True)

    def __init__(self, view: dict, **kwargs: Any):
        super().__init__(view_json=json.dumps(pack(view)), **kwargs)
        self.view = view

    def update(self, x: Any, **view_args: Any) -> LensWidget:
        """Show another object (or the same one after a change) in this widget."""
        self.view = show(x, **view_args).view
        self.view_json = json.dumps(pack(self.view))  # packed: the comm and saved widget state carry ~1/10
        return self

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, None)
        data = {**data, **bundle_of(self.view)}
        return data if metadata is None else (data, metadata)  # the widget's metadata, as ipywidgets returns it

    def __repr__(self) -> str:
        return summary(self.view)


def widget(
    x: Any, focus: str | Iterable[str] | None = None, hops: int = 1, notes: dict | None = None, title: str | None = None
) -> LensWidget:
    """A live view (anywidget) of x: `w.update(y)` redraws it in place, e.g. after each calibration batch.

    Its output also carries the static forms; but a notebook saved with widget state makes nbconvert prefer
    the widget (drawn through scripts from a CDN), so use `pl.show` for views that must survive offline.
    """
    return LensWidget(show(x, focus=focus, hops=hops, notes=notes, title=title).view)
