"""The workbench as an anywidget: step buttons, a preset picker, calibration progress, fp32 picks from the graph's
selection, rerun, cancel; the run drawn below by the same front end as pl.show (`src/widget/workbench.ts`).

Steps run in a worker thread so the kernel still hears "cancel" (checked between calibration batches). Each
time a step ends the cell's output is replaced (same widget, same display id), so a saved notebook keeps the
last run as pl.show's static view for hosts without the widget.
"""

from __future__ import annotations

import json
import threading
import uuid
from typing import Any

import anywidget
import traitlets

from .. import i18n
from .._static import STATIC, bundle
from ..display import bundle_of, show
from ..errors import Pt2eLensError
from ..schema.packed import pack
from .state import state

_MISSING_ESM = """
export default { render({ el }) {
  el.textContent = "pt2e-lens: the front end is not built (run `npm run build` or `pip install .`).";
} };
"""

_LONG = {"advance", "run_all", "rerun", "recipe"}


def _target(text: Any) -> Any:
    """The target SQNR the front end's field sent (text): a number, or the text itself for pl.recipe to refuse."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return text


class WorkbenchWidget(anywidget.AnyWidget):
    _esm = STATIC / "workbench.js" if bundle("workbench.js") is not None else _MISSING_ESM
    view_json = traitlets.Unicode("").tag(sync=True)
    state_json = traitlets.Unicode("{}").tag(sync=True)
    recipe_target = traitlets.Unicode("30").tag(sync=True)  # the field as typed: kept when the output is redrawn

    def __init__(self, bench: Any, **kwargs: Any):  # a Workbench (bench.py makes its widget: no import back)
        super().__init__(**kwargs)
        self.bench = bench
        self.comparison: Any = None
        self.view: dict | None = None
        self._shown: tuple | None = None  # (run, stages) the view was made of
        self._worker: threading.Thread | None = None
        self._busy = False  # a long action's worker has not finished (its output not yet replaced): no new one
        self._display_id = uuid.uuid4().hex
        self._locale = i18n.get_locale()
        bench._listeners.append(self._changed)
        self.on_msg(self._on_msg)
        self._changed("state")

    # -- Python → front end
    def _changed(self, what: str) -> None:
        with i18n.using(self._locale):  # a step in the worker thread speaks the language the widget was made in
            if what == "state" and self.bench.running is None:
                self._redraw_graph()
            self.state_json = json.dumps({**state(self.bench, self.comparison), "busy": self._busy})

    def _redraw_graph(self) -> None:
        run = self.bench.run
        key = None if run is None else (id(run), tuple(run.stages))
        if key == self._shown:
            return
        self._shown = key
        # the Run's own view (a tab per stage); show(run, title=…) would draw the newest stage alone
        self.view = None if run is None else {**show(run).view, "title": i18n.t("workbench.title")}
        self.view_json = "" if self.view is None else json.dumps(pack(self.view))

    # -- front end → Python
    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or not isinstance(content.get("action"), str):
            return
        action = content["action"]
        if action == "cancel":
            self.bench.cancel()
            return
        if self._worker is not None and self._worker.is_alive():
            return  # one step at a time: the buttons are disabled meanwhile
        if action in _LONG:
            self._busy = True
            self._worker = threading.Thread(target=self._act, args=(action, content), daemon=True)
            self._worker.start()
        else:
            self._act(action, content)

    def _act(self, action: str, content: dict) -> None:
        wb = self.bench
        wb.error = None  # a new action: the line of the last one goes
        try:
            with i18n.using(self._locale):
                if action == "advance":
                    wb.advance()
                elif action == "run_all":
                    wb.run_all()
                elif action == "rerun":
                    self.comparison = wb.rerun()
                elif action == "use":
                    wb.use(str(content.get("name")))
                elif action == "keep_fp32":
                    wb.keep_fp32(str(content.get("id")))
                elif action == "quantize":
                    wb.quantize(str(content.get("label")))
                elif action == "recipe":
                    wb.recipe(_target(content.get("target")))
                elif action == "accept":
                    wb.accept(*([str(content["id"])] if content.get("id") else []))
                else:
                    raise Pt2eLensError(i18n.t("workbench.error.unknown_action", action=repr(action)))
        except Pt2eLensError as e:
            wb.error = str(e)  # the one line the widget shows (advance() has set it already)
        except KeyboardInterrupt:
            pass  # cancelled: wb.error says which step and what was kept
        except Exception as e:  # never a traceback from a button: the line says what raised
            wb.error = f"{type(e).__name__}: {e}".splitlines()[0]
        finally:
            self._changed("state")
            self._update_output()
            if self._busy:  # only now may a button start the next action (it is ignored while the worker lives)
                self._busy = False
                self._changed("state")

    # -- the cell's output
    def _bundle(self) -> dict:
        made: Any = super()._repr_mimebundle_() or {}
        data: dict = made[0] if isinstance(made, tuple) else made  # the widget view (ipywidgets may add metadata)
        return {**data, **bundle_of(self.view)} if self.view is not None else dict(data)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self._bundle(), raw=True, display_id=self._display_id)

    def _update_output(self) -> None:
        try:
            from IPython.display import update_display

            update_display(self._bundle(), raw=True, display_id=self._display_id)
        except Exception:  # outside IPython: nothing to replace
            pass

    def __repr__(self) -> str:
        return repr(self.bench)
