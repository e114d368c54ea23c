"""`pl.Run` and `pl.capture`: export → (decompose) → annotate → prepare → calibrate → convert.

prepare_pt2e and convert_pt2e mutate graphs in place, so every step works on a private copy and
every stage keeps its own: the user's model, ExportedProgram and GraphModules are never touched.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import torch

from .._copy import private_copy
from .._torchao import Quantizer, convert_pt2e
from ..analyses.decomposition import decomposition_table
from ..analyses.findings import with_findings
from ..display_hook import Displayable
from ..errors import Pt2eLensError, first_line
from ..prepare.checks import CheckedPrepare
from ..snapshot import CaptureRecord, HasSnapshot, Snapshot, build
from ..snapshot.keys import serves_from_callback
from ._strip import without_observers
from .export import check_example_inputs, export, require_dynamic_batch
from .stage import STAGE_ORDER, Stage


class Run(HasSnapshot, Displayable):
    """Step through PT2E, keeping every stage: `run["prepared"].graph_module`, `.snapshot`."""

    def __init__(self, model: Any, example_inputs: Any = None, dynamic_batch: bool = False):
        self._stages: dict[str, Stage] = {}
        # the prepared module being calibrated; convert consumes it (see _observed_module)
        self._working: torch.fx.GraphModule | None = None
        self._calibrated = False
        self.dynamic_batch = dynamic_batch
        if dynamic_batch and isinstance(model, (torch.export.ExportedProgram, torch.fx.GraphModule)):
            require_dynamic_batch(model)  # a graph's batch size was fixed when it was exported
        if isinstance(model, torch.export.ExportedProgram):
            ep = model  # .module() and run_decompositions() return new objects: ep stays untouched
            self._add(Stage("exported", make=ep.module, exported_program=ep))
        elif isinstance(model, torch.fx.GraphModule):
            self._add(Stage("exported", private_copy(model)))
        else:
            if example_inputs is None:
                raise Pt2eLensError(
                    "pl.Run(model, example_inputs): example_inputs is required to export a model, e.g. (x,)."
                )
            inputs = check_example_inputs(example_inputs)
            ep = export(model, inputs, dynamic_batch)
            self._add(Stage("exported", make=ep.module, exported_program=ep))

    # -- stages
    @property
    def stages(self) -> list[str]:
        return [s for s in STAGE_ORDER if s in self._stages]

    def __getitem__(self, name: str) -> Stage:
        if name not in self._stages:
            raise Pt2eLensError(f"this run has no {name!r} stage; it has: {', '.join(self.stages)}.")
        return self._stages[name]

    def __contains__(self, name: str) -> bool:
        return name in self._stages

    def __iter__(self):
        return (self._stages[s] for s in self.stages)

    @property
    def latest(self) -> Stage:
        return self._stages[self.stages[-1]]

    @property
    def snapshot(self) -> Snapshot:
        """The newest stage's snapshot: what an analysis handed the whole Run reads."""
        return self.latest.snapshot

    def _add(self, stage: Stage) -> None:
        # a stage replaces its old self and every later one: they no longer follow from it
        for later in STAGE_ORDER[STAGE_ORDER.index(stage.name) :]:
            self._stages.pop(later, None)
        self._stages[stage.name] = stage

    # -- steps
    def decompose(self, table: Any = None) -> Run:
        """`None`/`{}`/"empty": the empty table; "core": Core ATen; or a decomposition table dict."""
        if "prepared" in self._stages:
            raise Pt2eLensError("decompose() comes before prepare(): start a new pl.Run to decompose.")
        ep = self._stages["exported"].exported_program
        if ep is None:
            raise Pt2eLensError(
                "decompose() needs an ExportedProgram: create the run from a model or an ExportedProgram, not a GraphModule."
            )
        label, resolved = decomposition_table(table, "decompose(table)")
        try:
            new_ep = ep.run_decompositions() if resolved is None else ep.run_decompositions(resolved)
        except Exception as e:
            raise Pt2eLensError(f"run_decompositions failed: {first_line(e)}.", original=e) from None
        self._add(Stage("decomposed", make=new_ep.module, exported_program=new_ep, info={"table": label}))
        return self

    def prepare(self, quantizer: Quantizer) -> Run:
        if not isinstance(quantizer, Quantizer):
            raise Pt2eLensError(f"prepare() needs a torchao Quantizer, got {type(quantizer).__name__}.")
        base = self._stages["decomposed" if "decomposed" in self._stages else "exported"]
        name = type(quantizer).__name__
        annotated: dict[str, Snapshot] = {}

        def on_annotated(graph: torch.fx.GraphModule, problems: list[dict], rec) -> None:
            # snapshot the live annotated graph now (prepare mutates it next) instead of copying it
            record = CaptureRecord(
                blame=dict(rec.blame),
                skipped_by={k: list(v) for k, v in rec.skipped_by.items()},
                problems=list(problems),
            )
            annotated["snapshot"] = with_findings(build(graph, "annotated", record), record.problems)

        done = CheckedPrepare(base.fresh_module(), quantizer, on_annotated=on_annotated)
        recorder, prepared = done.recorder, done.prepared
        known: dict[str, Any] = {"blame": recorder.blame, "skipped_by": recorder.skipped_by, "problems": done.problems}
        record = CaptureRecord(**known, serves=serves_from_callback(recorder.edge_or_node_to_obs, prepared))
        prepared_stage = Stage("prepared", private_copy(prepared), record, info={"quantizer": name})
        # its graph, when asked for, is the prepared copy without observers: what annotate left
        self._add(
            Stage(
                "annotated",
                record=CaptureRecord(**known),
                info={"quantizer": name},
                snapshot=annotated["snapshot"],
                make=lambda: without_observers(prepared_stage.graph_module),
            )
        )
        self._add(prepared_stage)
        self._working, self._calibrated = prepared, False
        return self

    def calibrate(self, batches: Iterable[Any] | Callable[[torch.fx.GraphModule], Any]) -> Run:
        """Feed input tuples (or call `batches(prepared_module)`) through the prepared model."""
        if "prepared" not in self._stages:
            raise Pt2eLensError("calibrate() needs a prepared model: call run.prepare(quantizer) first.")
        working = self._observed_module()
        done = 0
        try:
            with torch.no_grad():
                if callable(batches) and not hasattr(batches, "__iter__"):
                    batches(working)
                    done = 1
                else:
                    for batch in batches:
                        working(*(batch if isinstance(batch, (tuple, list)) else (batch,)))
                        done += 1
        except Exception as e:
            last_good = self._stages["calibrated" if self._calibrated else "prepared"]
            self._working = private_copy(last_good.graph_module)  # drop the half-observed batch
            raise self._calibration_error(e, done) from None
        if done == 0:
            raise Pt2eLensError("calibrate() got no batches: pass an iterable of input tuples, e.g. [(x1,), (x2,)].")
        self._calibrated = True
        prepared = self._stages["prepared"].record
        record = dataclasses.replace(prepared, qparams={})  # its own qparams cache
        self._add(Stage("calibrated", private_copy(working), record, info={"batches": done}))
        return self

    def _observed_module(self) -> torch.fx.GraphModule:
        """The prepared module with every batch seen so far; re-made from the last stage after a convert."""
        if self._working is None:
            last = self._stages["calibrated" if self._calibrated else "prepared"]
            self._working = private_copy(last.graph_module)
        return self._working

    def _calibration_error(self, e: BaseException, index: int) -> Pt2eLensError:
        text = str(e)
        if not self.dynamic_batch and ("Guard failed" in text or "size()[0]" in text or "Expected input" in text):
            return Pt2eLensError(
                f"calibration batch {index} has another shape than the example inputs and the model was "
                f"exported with a static batch size ({first_line(e, 120)}): use pl.Run(..., dynamic_batch=True) "
                f"or batches of the example size.",
                original=e,
            )
        return Pt2eLensError(f"calibration batch {index} failed: {type(e).__name__}: {first_line(e)}.", original=e)

    def convert(self) -> Run:
        if "prepared" not in self._stages:
            raise Pt2eLensError("convert() needs a prepared model: call run.prepare(quantizer) first.")
        if not self._calibrated:
            warnings.warn(
                "pt2e-lens: converting without calibration — observers saw no data, so scales and zero "
                "points are defaults; call run.calibrate(batches) first.",
                stacklevel=2,
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # the latest stage holds its own copy: convert the working module itself, in place
            working, self._working = self._observed_module(), None
            converted = convert_pt2e(working)
        stage = Stage("converted", converted, self._stages["prepared"].record, info={"calibrated": self._calibrated})
        self._add(stage)
        if self._calibrated:
            self._stages["calibrated"].record.qparams.update(
                {q["from_observer"]: (q["scale"], q["zero_point"]) for q in stage.snapshot.qdq if q["from_observer"]}
            )
        return self

    def __repr__(self) -> str:
        return f"<pt2e_lens.Run stages={self.stages}>"


def capture(
    model: Any,
    example_inputs: Any,
    quantizer: Quantizer,
    calibration: Iterable[Any] | Callable | None = None,
    dynamic_batch: bool = False,
    decompose: Any = False,
) -> Run:
    """Every stage in one call: export, optional decompose, prepare, calibrate (if given), convert."""
    run = Run(model, example_inputs, dynamic_batch=dynamic_batch)
    if decompose is not False:
        run.decompose(decompose)
    run.prepare(quantizer)
    if calibration is not None:
        run.calibrate(calibration)
    run.convert()
    return run
