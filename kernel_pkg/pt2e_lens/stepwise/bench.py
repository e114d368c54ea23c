"""`pl.workbench(model, example_inputs, quantizer, calibration)`: the PT2E pipeline as steps to take one at a time.

export → prepare → calibrate → convert → lower, each one `wb.advance()` (what its button does in the widget),
on a `pl.Run` (`wb.run`), so every stage is kept and shown as pl.show shows a Run. The user's model, quantizer
and batches are only read: the Run works on copies, a preset quantizer is built anew for each run, and fp32
picks wrap the quantizer in `pl.KeepFp32` instead of changing it. A step that fails or is cancelled leaves
the steps before it as they were (`wb.error` says what happened in one line); a calibration stopped half way
keeps the batches its observers saw, and the next `advance()` feeds the rest. `cancel()` stops any other step
mid-way as Ctrl-C does (interrupt.py), so the widget's cancel works on every step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .. import i18n
from .._torchao import Quantizer
from ..capture import Run
from ..errors import Pt2eLensError, first_line
from ..prepare.keep_fp32 import KeepFp32
from ..prepare.presets import PRESETS, Preset, preset
from ..why.recipe import Recipe, recipe
from ..why.sweep_args import check_iterable
from .choices import Pick, merged, pick_of, site_pick
from .code import run_code
from .compare import RunComparison
from .interrupt import Interruptible
from .measure import output_sqnr, summary
from .steps import STEPS


class _Counted:
    """The batches still to feed, counting each one the prepared model took (and stopping on `cancel`)."""

    def __init__(self, items: list, start: int, bench: Workbench):
        self.items, self.start, self.bench = items, start, bench

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Any]:
        for i, item in enumerate(self.items):
            if self.bench._cancel:
                raise KeyboardInterrupt  # as Ctrl-C would: Run keeps the batches before this one
            yield item
            self.bench._calibrating(self.start + i + 1)


class Workbench:
    """The pipeline as steps: `advance()`, `run`, `keep_fp32` / `quantize`, `rerun()`, `recipe()`, `code`."""

    def __init__(
        self,
        model: Any,
        example_inputs: Any,
        quantizer: Quantizer | str | None = None,
        calibration: Iterable[Any] | None = None,
        backend: str | None = None,
    ):
        self.model, self.example_inputs = model, example_inputs
        self._preset: Preset | None = None
        self._user_quantizer: Quantizer | None = None
        self._listeners: list[Callable[[str], None]] = []  # the widget: told "state" or "progress"
        self.use(quantizer)
        if calibration is not None:
            check_iterable(calibration, "pl.workbench")
        self._own_calibration = calibration is not None
        # a list of the user's own batches (not copies, never written): a generator is read once, here
        self.batches: list = list(calibration) if calibration is not None else [example_inputs]
        if not self.batches:
            raise Pt2eLensError(i18n.t("workbench.error.no_batches"))
        if backend is not None and not isinstance(backend, str):
            raise Pt2eLensError(i18n.t("workbench.error.backend_type", got=type(backend).__name__))
        self._backend = backend
        self.run: Run | None = None
        self.previous: Run | None = None  # the run before the last rerun()
        self.done: list[str] = []
        self.error: str | None = None  # the last step's failure, one line; None after a step that worked
        self.running: str | None = None
        self.seen = 0  # calibration batches the current run's observers saw
        self.picks: list[Pick] = []
        self.offered: Recipe | None = None  # the last recipe(): its sites, to accept()
        self._cancel = False
        self._guard = Interruptible()  # the body of the step under way, for cancel() to interrupt
        self._sqnr: dict[int, float | None] = {}
        self._made_with: dict[str, Any] = {}  # the preset, picks and backend the current run was made with
        self._widget: Any = None

    # -- choices
    def use(self, quantizer: Quantizer | str | None) -> Workbench:
        """A preset's name (`PRESETS`: "xnnpack", "xnnpack_per_tensor", "xnnpack_dynamic", "x86"; None:
        "xnnpack") or your own torchao Quantizer. Takes effect at the next prepare (`rerun()` after one)."""
        if quantizer is None or isinstance(quantizer, str):
            self._preset, self._user_quantizer = preset(quantizer or "xnnpack"), None
        elif isinstance(quantizer, Quantizer):
            self._preset, self._user_quantizer = None, quantizer
        else:
            raise Pt2eLensError(
                i18n.t("workbench.error.quantizer_type", got=type(quantizer).__name__, choices=", ".join(PRESETS))
            )
        self._told("state")
        return self

    @property
    def preset(self) -> str | None:
        return self._preset.name if self._preset is not None else None

    @property
    def backend(self) -> str:
        """The backend `lower` uses: as given, else the preset's, else XNNPACK for an XNNPACK quantizer."""
        if self._backend is not None:
            return self._backend
        if self._preset is not None:
            return self._preset.backend
        return "xnnpack" if "xnnpack" in type(self._user_quantizer).__name__.lower() else "inductor"

    def _quantizer(self) -> Quantizer:
        base = self._preset.build() if self._preset is not None else self._user_quantizer
        assert base is not None
        edges, outputs = merged(self.picks)
        return KeepFp32(base, edges=edges, outputs=outputs) if (edges or outputs) else base

    def keep_fp32(self, *targets: Any) -> Workbench:
        """Leave each target in fp32 at the next run: a node (its name or fx Node: its inputs and output) or
        a module (the instance or its path: every node inside it). `rerun()` applies the picks."""
        snap = self._names_graph()
        for target in targets:
            pick = pick_of(target, snap, self.model)
            if pick.label not in {p.label for p in self.picks}:
                self.picks.append(pick)
        self._told("state")
        return self

    def quantize(self, *targets: Any) -> Workbench:
        """Take back keep_fp32 (or accepted recipe) picks by the same target; no target: all of them."""
        if not targets:
            self.picks = []
        else:
            snap = self._names_graph()
            labels = {t if isinstance(t, str) else pick_of(t, snap, self.model).label for t in targets}
            unknown = labels - {p.label for p in self.picks}
            if unknown:
                raise Pt2eLensError(i18n.t("workbench.error.not_picked", name=repr(sorted(unknown)[0])))
            self.picks = [p for p in self.picks if p.label not in labels]
        self._told("state")
        return self

    def _names_graph(self):
        if self.run is None:
            raise Pt2eLensError(i18n.t("workbench.error.export_first"))
        return self.run["annotated" if "annotated" in self.run else "exported"].snapshot

    # -- steps
    @property
    def next_step(self) -> str | None:
        return next((s for s in STEPS if s not in self.done), None)

    def advance(self) -> Workbench:
        """Run the next step. On failure or Ctrl-C the steps before it stay as they were and `error` says why."""
        step = self.next_step
        if step is None:
            raise Pt2eLensError(i18n.t("workbench.error.all_done"))
        self.running, self.error, self._cancel = step, None, False
        self._told("state")
        before = (self.run, tuple(self.run.stages) if self.run is not None else ())
        try:
            if step == "calibrate":  # stopped between batches (_Counted): a batch is never half observed
                self._calibrate()
            else:
                with self._guard.body():
                    getattr(self, f"_{step}")()
        except KeyboardInterrupt:
            if self._finished(step, before):  # the cancel came after the step's work: it counts, as it is kept
                self.done.append(step)
            elif step != "calibrate":  # (a calibration keeps the batches its observers saw: its stage stays)
                self._drop_new_stages(before)
            self.error = self._cancelled_line(step)
            raise
        except Pt2eLensError as e:
            self.error = first_line(e, 400)
            raise
        except Exception as e:  # not worded by the step itself: name the step and what raised
            err = Pt2eLensError(
                i18n.t(
                    "workbench.error.step_failed",
                    step=self._step_name(step),
                    error=type(e).__name__,
                    reason=first_line(e),
                ),
                original=e,
            )
            self.error = str(err)
            raise err from None
        else:
            self.done.append(step)
        finally:
            self.running, self._cancel = None, False
            self._told("state")
        return self

    def run_all(self) -> Workbench:
        """Every step left, in order (stops at the first that fails)."""
        while self.next_step is not None:
            self.advance()
        return self

    def cancel(self) -> None:
        """Stop the step under way, as Ctrl-C does (the widget's cancel, from another thread): calibration before
        its next batch, any other step at once. The steps before it stay; the interrupted one is not recorded."""
        self._cancel = True
        if self.running not in (None, "calibrate"):
            self._guard.interrupt()
        if self.running is not None:
            self._told("state")  # "cancelling …": the press is heard (a calibration batch may take a while)

    def _drop_new_stages(self, before: tuple) -> None:
        """An interrupt that landed between two stages of one step (prepare adds annotated, then prepared)."""
        run, stages = before
        if self.run is run and run is not None:
            for name in set(run.stages) - set(stages):
                run._stages.pop(name)

    def _finished(self, step: str, before: tuple) -> bool:
        """Whether `step` added its stage to the run before a KeyboardInterrupt landed."""
        run, stages = before
        made = {"export": "exported", "prepare": "prepared", "convert": "converted", "lower": "lowered"}.get(step)
        if made is None or self.run is None or made not in self.run:
            return False
        return self.run is not run or made not in stages

    def _export(self) -> None:
        self.run, self.seen = Run(self.model, self.example_inputs), 0
        self._made_with = {}

    def _prepare(self) -> None:
        assert self.run is not None
        self.run.prepare(self._quantizer())
        edges, outputs = merged(self.picks)  # what this run was prepared with: later picks wait for rerun()
        self._made_with = {"preset": self._preset, "edges": edges, "outputs": outputs}

    def _calibrate(self) -> None:
        assert self.run is not None
        try:
            self.run.calibrate(_Counted(self.batches[self.seen :], self.seen, self))
        finally:  # whatever the observers saw, also when a batch failed or the user cancelled
            if "calibrated" in self.run:
                self.seen = self.run["calibrated"].info["batches"]

    def _convert(self) -> None:
        assert self.run is not None
        self.run.convert()

    def _lower(self) -> None:
        assert self.run is not None
        self.run.lower(self.backend)
        self._made_with["backend"] = self.backend

    def _calibrating(self, seen: int) -> None:
        self.seen = seen
        self._told("progress")

    def _cancelled_line(self, step: str) -> str:
        """What a cancel kept; a calibration keeps the batches its observers saw (its stage stays), so say so."""
        name, kept = self._step_name(step), self._kept()
        if step == "calibrate" and self.seen:
            return i18n.t(
                "workbench.cancelled_calibration", step=name, kept=kept, seen=self.seen, total=len(self.batches)
            )
        return i18n.t("workbench.cancelled", step=name, kept=kept)

    def _kept(self) -> str:
        return ", ".join(self._step_name(s) for s in self.done) or "—"

    @staticmethod
    def _step_name(step: str) -> str:
        return i18n.t(f"workbench.step.{step}")

    # -- comparisons
    @property
    def sqnr(self) -> float | None:
        """Output SQNR (dB) of the converted model against the float one on the calibration batches."""
        return self._sqnr_of(self.run)

    def _sqnr_of(self, run: Run | None) -> float | None:
        if run is None:
            return None
        if id(run) not in self._sqnr or (self._sqnr[id(run)] is None and "converted" in run):
            self._sqnr[id(run)] = output_sqnr(run, self._sqnr_batches())
        return self._sqnr[id(run)]

    def _sqnr_batches(self) -> list[tuple]:
        return [tuple(b) if isinstance(b, (tuple, list)) else (b,) for b in self.batches]

    def rerun(self) -> RunComparison:
        """A new run with the current quantizer and picks, as far as the current one went (at least through
        convert), compared with it: counts, output SQNR, backend outcomes (`.graph`, `.ops` for the graphs)."""
        if self.run is None:
            raise Pt2eLensError(i18n.t("workbench.error.export_first"))
        previous, steps = self.run, max(len(self.done), STEPS.index("convert") + 1)
        before = summary(previous, self._sqnr_of(previous))
        self._sqnr = {id(previous): before["sqnr"]}  # an older run's id may be a new run's
        self.previous, self.run, self.done, self.seen = previous, None, [], 0
        self.offered = None
        for _ in range(steps):
            self.advance()
        return self.comparison(before)

    def comparison(self, before: dict | None = None) -> RunComparison:
        if self.previous is None or self.run is None:
            raise Pt2eLensError(i18n.t("workbench.error.no_previous"))
        before = before or summary(self.previous, self._sqnr_of(self.previous))
        return RunComparison(self.previous, self.run, before, summary(self.run, self.sqnr))

    def recipe(self, target_sqnr: float, max_fp32_sites: int | None = None) -> Recipe:
        """pl.recipe on this run and its batches: the fewest sites to keep fp32 for `target_sqnr` dB, offered
        as picks — `accept()` takes them (or some of them, by site id), `rerun()` applies them."""
        if self.run is None or "converted" not in self.run:
            raise Pt2eLensError(i18n.t("workbench.error.recipe_needs_converted"))
        self.offered = recipe(self.run, self._sqnr_batches(), target_sqnr, max_fp32_sites=max_fp32_sites)
        self._told("state")
        return self.offered

    def accept(self, *site_ids: str) -> Workbench:
        """Take the offered recipe's sites (all, or those ids) as fp32 picks."""
        if self.offered is None:
            raise Pt2eLensError(i18n.t("workbench.error.no_recipe"))
        sites = {s.id: s for s in self.offered.sites}
        unknown = [i for i in site_ids if i not in sites]
        if unknown:
            raise Pt2eLensError(
                i18n.t("workbench.error.unknown_site", name=repr(unknown[0]), sites=", ".join(sites) or "—")
            )
        for sid in site_ids or list(sites):
            if sid not in {p.label for p in self.picks}:
                self.picks.append(site_pick(sites[sid]))
        self._told("state")
        return self

    # -- code
    @property
    def code(self) -> str:
        """The plain Python (pl.capture / pl.Run, pl.KeepFp32, torchao) that makes the current run again."""
        made = self._made_with
        calibrated = self.seen if (self.run is not None and "calibrated" in self.run) else None
        return run_code(
            made.get("preset"),
            made.get("edges", []),
            made.get("outputs", []),
            self.done,
            calibrated,
            len(self.batches),
            self._own_calibration,
            made.get("backend", self.backend),
        )

    # -- the widget
    @property
    def widget(self) -> Any:
        """The anywidget of this workbench (made on first use; needs anywidget)."""
        if self._widget is None:
            from .widget import WorkbenchWidget

            self._widget = WorkbenchWidget(self)
        return self._widget

    def _ipython_display_(self) -> None:
        self.widget._ipython_display_()

    def _told(self, what: str) -> None:
        for listener in list(self._listeners):
            listener(what)

    def __repr__(self) -> str:
        done = ", ".join(self.done) or "—"
        return f"<pt2e_lens.Workbench done=[{done}] next={self.next_step} picks={len(self.picks)}>"
