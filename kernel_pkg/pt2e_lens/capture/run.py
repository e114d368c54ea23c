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

from .. import i18n
from .._copy import own_program, own_state, private_copy
from .._progress import task, total_of
from .._torchao import Quantizer, convert_pt2e, is_observer_module
from ..analyses.decomposition import decomposition_table
from ..analyses.findings import with_findings
from ..backends import backend_module
from ..display_hook import Displayable
from ..errors import Pt2eLensError, first_line
from ..prepare.annotate import NotAnAnnotation
from ..prepare.checks import CheckedPrepare
from ..prepare.errors import ChangedAnnotations
from ..snapshot import CaptureRecord, HasSnapshot, Snapshot, build
from ..snapshot.inserted import observer_sites, roles_from_diff
from ..snapshot.keys import serves_from_callback
from ._calibrated import Baseline, remake
from ._calibration import BadBatch, ChangedDtype, expected_inputs, feed
from ._gc_frozen import frozen_step
from ._run_args import check_run_args
from ._shared import SharedWeights
from ._strip import without_observers
from .decomposed_cause import decomposition_cause
from .export import check_example_inputs, export, export_mode, require_dynamic_batch
from .guards import from_executorch, has_guards, without_guards
from .lowered import inputs_from_graph, lowered_stage
from .qat import refuse_no_fake_quant, to_eval, to_train, train_mode_model, train_module, warn_folded_fake_quant
from .stage import STAGE_ORDER, Stage


class Run(HasSnapshot, Displayable):
    """Step through PT2E, keeping every stage: `run["prepared"].graph_module`, `.snapshot`."""

    @frozen_step
    def __init__(
        self,
        model: Any,
        example_inputs: Any = None,
        dynamic_batch: bool = False,
        strict: bool = False,
        dynamic_shapes: Any = None,
    ):
        check_run_args(model, example_inputs, dynamic_batch, is_run=isinstance(model, Run))
        self._stages: dict[str, Stage] = {}
        # "strict" / "non-strict" when this run exported the model itself (its errors name the mode)
        self.export_mode: str | None = None
        # the prepared module being calibrated; convert consumes it (see _observed_module)
        self._working: torch.fx.GraphModule | None = None
        self._baseline: Baseline | None = None  # the stage _working was last a copy of (see _calibrated)
        self._calibrated = False
        self._observed_batches = 0  # over every calibrate() call since prepare
        self._trained_steps = 0  # over every train() call since prepare_qat
        self.quantizer: Quantizer | None = None  # the user's own, as given to prepare (pl.recipe wraps it)
        self._qat = False  # prepared by prepare_qat: train() works, convert() moves the graph to eval first
        self.dynamic_batch = dynamic_batch
        self._example_inputs: tuple | None = None  # what the model was exported with: lower() compiles with them
        self._shared = SharedWeights()  # parameters the stages share instead of copying (capture/_shared.py)
        if dynamic_batch and isinstance(model, (torch.export.ExportedProgram, torch.fx.GraphModule)):
            require_dynamic_batch(model)  # a graph's batch size was fixed when it was exported
        if isinstance(model, torch.export.ExportedProgram):
            # the stage owns its graph, buffers and constants; it shares the Parameters, which nothing writes
            # (capture/_shared.py): the user's program stays untouched
            ep = own_program(model, share_parameters=True)
            self._shared.add_theirs(ep)
            self._add(Stage("exported", make=ep.module, exported_program=ep, shared=self._shared))
            self._example_inputs = tuple(ep.example_inputs[0]) if ep.example_inputs else None
        elif isinstance(model, torch.fx.GraphModule):
            gm = private_copy(model)
            self._shared.add_module(gm, model)
            self._add(Stage("exported", gm, shared=self._shared))
        else:
            if example_inputs is None:
                raise Pt2eLensError(i18n.t("error.run_needs_inputs"))
            inputs = check_example_inputs(example_inputs)
            # torch.export shares the model's parameters and buffers with the program: take our own
            ep = own_state(export(model, inputs, dynamic_batch, strict=strict, dynamic_shapes=dynamic_shapes))
            self._shared.add_theirs(ep)  # the model's Parameters, never written (see above)
            self.export_mode = export_mode(strict)
            self._example_inputs = inputs
            self._add(Stage("exported", make=ep.module, exported_program=ep, shared=self._shared))

    # -- stages
    @property
    def stages(self) -> list[str]:
        return [s for s in STAGE_ORDER if s in self._stages]

    def __getitem__(self, name: str) -> Stage:
        if name not in self._stages:
            raise Pt2eLensError(i18n.t("error.no_such_stage", name=repr(name), stages=", ".join(self.stages)))
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
    @frozen_step
    def decompose(self, table: Any = None) -> Run:
        """`None`/`{}`/"empty": the empty table; "core": Core ATen; or a decomposition table dict."""
        if "prepared" in self._stages:
            raise Pt2eLensError(i18n.t("error.decompose_after_prepare"))
        ep = self._stages["exported"]._program
        if ep is None:
            raise Pt2eLensError(i18n.t("error.decompose_needs_program"))
        label, resolved = decomposition_table(table, "decompose(table)")
        try:
            new_ep = ep.run_decompositions() if resolved is None else ep.run_decompositions(resolved)
        except Exception as e:
            raise Pt2eLensError(i18n.t("error.decomposition_failed", reason=first_line(e)), original=e) from None
        self._shared.add_program(new_ep, ep)
        stage = Stage("decomposed", make=new_ep.module, exported_program=new_ep, info={"table": label})
        self._add(stage.sharing(self._shared))
        return self

    def prepare(self, quantizer: Quantizer) -> Run:
        return self._prepare(quantizer, qat=False)

    def prepare_qat(self, quantizer: Quantizer) -> Run:
        """prepare_qat_pt2e: the QAT conv-bn pattern and fake-quantize modules; then `train(steps)`."""
        return self._prepare(quantizer, qat=True)

    @frozen_step
    def _prepare(self, quantizer: Quantizer, qat: bool, module: torch.fx.GraphModule | None = None) -> Run:
        # module: a private module to prepare instead of a fresh one of the last stage (pl.record's copy)
        if not isinstance(quantizer, Quantizer):
            raise Pt2eLensError(i18n.t("error.prepare_needs_quantizer", got=type(quantizer).__name__))
        base = self._stages["decomposed" if "decomposed" in self._stages else "exported"]
        name = type(quantizer).__name__
        annotated: dict[str, Any] = {}  # its snapshot (and for QAT its graph), taken when annotate is done

        def on_annotated(graph: torch.fx.GraphModule, problems: list[dict], rec) -> None:
            # snapshot the live annotated graph now (prepare mutates it next) instead of copying it
            record = CaptureRecord(
                blame=dict(rec.blame),
                skipped_by={k: list(v) for k, v in rec.skipped_by.items()},
                problems=list(problems),
            )
            annotated["snapshot"] = with_findings(build(graph, "annotated", record), record.problems)
            if qat:  # the QAT fusion rewrites conv and batch norm next: the prepared graph minus observers is not it
                annotated["graph"] = private_copy(graph)

        try:
            if module is None:
                # QAT trains the weights in place: its module owns them
                shared = None if qat else self._shared
                done, dropped = _checked_prepare(base, quantizer, on_annotated, qat, annotated, shared)
            else:  # pl.record's copy of the graph the user's own flow prepared: as it is
                done, dropped = CheckedPrepare(module, quantizer, on_annotated=on_annotated, qat=qat), False
        except Pt2eLensError as e:
            self._shared.check(None)  # what the quantizer wrote before it failed goes nowhere
            cause = self._decomposition_cause(e) if not annotated and _quantizer_failed(e) else None
            if cause is not None:  # the decomposition, not the export mode, changed the op it failed on
                raise Pt2eLensError(i18n.t("error.with_cause", head=e.head, cause=cause), original=e.original) from None
            if self.export_mode == "non-strict" and not annotated and _quantizer_failed(e):
                raise _export_mode_error(name, e) from None
            raise
        recorder, prepared = done.recorder, done.prepared
        self._shared.check(prepared)  # the quantizer's own code ran on it
        if not qat:  # the prepared stage shares them too (e.g. conv weights with their batch norm folded in)
            self._shared.add_module(prepared)
        if qat:
            refuse_no_fake_quant(prepared, name)  # a PTQ quantizer on prepare_qat_pt2e would train nothing
            to_train(prepared)  # a graph exported in eval mode: its batch norms and dropouts go on training
        else:
            # a QAT quantizer on prepare_pt2e: runs as torchao runs it; where it folded batch norms, one warning
            warn_folded_fake_quant(prepared, name, done.folded_batch_norms)
        known: dict[str, Any] = {"blame": recorder.blame, "skipped_by": recorder.skipped_by, "problems": done.problems}
        known["annotators"] = recorder.log.as_record()
        record = CaptureRecord(**known, serves=serves_from_callback(recorder.edge_or_node_to_obs, prepared))
        info: dict[str, Any] = {"quantizer": name, "qat": True} if qat else {"quantizer": name}
        if dropped:  # annotated ep.module(check_guards=False), as the quantizer's own flow does
            info["check_guards"] = False
        shared_weights = self._shared
        prepared_stage = Stage("prepared", private_copy(prepared, shared_weights.ids, kept=True), record, info=info)
        # its graph, when asked for, is the prepared copy without observers: what annotate left
        if qat:
            make = lambda: private_copy(annotated["graph"])  # noqa: E731
        else:
            make = lambda: without_observers(prepared_stage.own_graph(), shared_weights.ids)  # noqa: E731
        self._add(
            Stage(
                "annotated", record=CaptureRecord(**known), info=info, snapshot=annotated["snapshot"], make=make
            ).sharing(shared_weights)
        )
        prepared_stage.sharing(shared_weights)
        self._add(prepared_stage)
        self._working, self._calibrated, self._observed_batches = prepared, False, 0
        self._trained_steps = 0
        self._baseline = Baseline(prepared_stage, prepared)
        self.quantizer = quantizer
        self._qat = qat
        return self

    @frozen_step
    def train(
        self,
        steps: Iterable[Any] | Callable[[torch.fx.GraphModule], Any],
        loss: Callable[[Any, Any], torch.Tensor] | None = None,
        optimizer: Callable[[list], torch.optim.Optimizer] | None = None,
    ) -> Run:
        """QAT: `steps(prepared_module)`, or batches `(*inputs, target)` each one optimizer step on
        `loss(output, target)` (`optimizer(params)`, default SGD lr=1e-3). Records the "trained" stage."""
        if not self._qat:
            raise Pt2eLensError(i18n.t("error.qat_train_needs_prepare_qat"))
        working = self._observed_module()
        try:
            with task(i18n.t("progress.train"), total_of(steps), i18n.t("progress.unit.steps")) as shown:
                done = train_module(working, steps, loss, optimizer, shown.advance)
        except BaseException:  # an error, Ctrl-C or a signal: nothing of this call is kept
            self._working = self._baseline = None  # trained half way: re-made from the last stage
            raise
        self._trained_steps += done
        record = dataclasses.replace(self._stages["prepared"].record, qparams={})
        # every step the weights took, over all train() calls since prepare (as calibrate counts batches)
        self._add(Stage("trained", private_copy(working, kept=True), record, info={"steps": self._trained_steps}))
        self._baseline = Baseline(self._stages["trained"], working)
        self._calibrated = False  # a calibrated stage before it is gone: the trained one holds all it saw
        return self

    def _decomposition_cause(self, e: Pt2eLensError) -> str | None:
        if "decomposed" not in self._stages:
            return None
        text = f"{e} {e.original}" if e.original is not None else str(e)
        return decomposition_cause(text, self._stages["decomposed"].snapshot, self._stages["exported"].snapshot)

    @frozen_step
    def calibrate(self, batches: Iterable[Any] | Callable[[torch.fx.GraphModule], Any]) -> Run:
        """Feed input tuples (or call `batches(prepared_module)`) through the prepared model.

        A batch that fails is not observed; the batches before it are kept (in `run["calibrated"]`), the
        error names the failing batch, and `run.calibrate(more)` continues from there.
        """
        if "prepared" not in self._stages:
            raise Pt2eLensError(i18n.t("error.calibrate_needs_prepared"))
        working = self._observed_module()
        if callable(batches) and not hasattr(batches, "__iter__"):
            self._shared.unshare_theirs(working)  # the user's code runs on it: never on the user's tensors
            try:
                with torch.no_grad():
                    batches(working)
            except BaseException as e:  # Ctrl-C / a signal too: a half-run callable is never kept
                self._working = self._baseline = None  # the callable may have stopped half way: re-made later
                self._shared.check(working)
                if not isinstance(e, Exception):
                    raise
                raise Pt2eLensError(
                    i18n.t("error.calibrate_fn_raised", error=type(e).__name__, reason=first_line(e)), original=e
                ) from None
            done, failure = 1, None
            self._baseline = None  # the callable may have changed more than observers: copy the whole module
        else:
            label, unit = i18n.t("progress.calibrate"), i18n.t("progress.unit.batches")
            with task(label, total_of(batches), unit) as shown:
                done, failure = feed(working, batches, expected_inputs(working), self.dynamic_batch, shown.advance)
        self._shared.check(working)  # forwards (or the user's callable) ran on it
        if done:
            self._calibrated = True
            self._observed_batches += done
            record = dataclasses.replace(self._stages["prepared"].record, qparams={})  # its own qparams cache
            # every batch the observers have seen, over all calls since prepare (they accumulate)
            info = {"batches": self._observed_batches}
            self._add(self._calibrated_stage(working, record, info))
        if failure is not None:
            if not isinstance(failure[1], Exception):  # Ctrl-C / SIGALRM: the batches before it are kept
                raise failure[1]
            raise self._calibration_error(*failure, kept=done)
        if done == 0:
            raise Pt2eLensError(i18n.t("error.calibrate_no_batches"))
        return self

    def _calibrated_stage(self, working: torch.fx.GraphModule, record: CaptureRecord, info: dict) -> Stage:
        """The working module as it is now: copies of what calibration changed, not of the whole graph."""
        base = self._baseline
        changes = base.changes(working) if base is not None else None
        if base is None or changes is None:
            stage = Stage("calibrated", private_copy(working, self._shared.ids, kept=True), record, info=info)
            self._baseline = Baseline(stage, working)
            return stage.sharing(self._shared)
        made_from = base.stage  # not the Baseline: it holds the working module's tensors, which convert drops
        shared = self._shared
        stage = Stage("calibrated", record=record, info=info, make=lambda: remake(made_from, changes, shared.ids))
        return stage.made_from(made_from).sharing(shared)

    def _observed_module(self) -> torch.fx.GraphModule:
        """The prepared module with every batch seen so far; re-made from the last stage after a convert."""
        if self._working is None:
            last = self._stages["calibrated" if self._calibrated else "trained" if "trained" in self else "prepared"]
            self._working = private_copy(last.own_graph(), self._shared.ids)
            self._baseline = Baseline(last, self._working)
        return self._working

    def _calibration_error(self, index: int, e: BaseException, kept: int) -> Pt2eLensError:
        if isinstance(e, ChangedDtype):  # the quantizer changed a dtype: no batch can pass, none is to blame
            c = e.change
            return Pt2eLensError(
                i18n.t(
                    "error.calibration_dtype_changed",
                    index=index,
                    quantizer=type(self.quantizer).__name__ if self.quantizer is not None else "the quantizer",
                    node=c.node if c.node == c.op else f"{c.node} ({c.op})",
                    op=c.op,
                    exported=c.exported,
                    prepared=c.prepared,
                    inputs=", ".join(f"{name} {dtype}" for name, dtype in c.inputs),
                    error=f"{type(e.original).__name__}: {first_line(e.original, 120)}",
                ),
                original=e.original,
            )
        if isinstance(e, BadBatch):
            cause = str(e)
        else:
            cause = f"{type(e).__name__}: {first_line(e, 160)}"
            if not self.dynamic_batch and "size()[0]" in str(e):
                cause += i18n.t("error.calibration_static_batch")
        total = self._observed_batches if self._calibrated else 0
        if kept:
            then = i18n.t("error.calibration_kept", kept=kept, total=total, index=index)
        elif total:
            then = i18n.t("error.calibration_earlier", total=total)
        else:
            then = i18n.t("error.calibration_nothing")
        return Pt2eLensError(i18n.t("error.calibration_batch", index=index, cause=cause, then=then), original=e)

    @frozen_step
    def convert(self) -> Run:
        if "prepared" not in self._stages:
            raise Pt2eLensError(i18n.t("error.convert_needs_prepared"))
        if not (self._calibrated or "trained" in self):
            warnings.warn(
                i18n.t("warning.convert_uncalibrated"),
                stacklevel=2,
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # the latest stage holds its own copy: convert the working module itself, in place
            working, self._working = self._observed_module(), None
            self._baseline = None  # convert consumes the working module
            if self._qat:
                to_eval(working)  # torchao's move_exported_model_to_eval: batch norm and dropout to eval
            modules = dict(working.named_modules())
            sites = observer_sites(working, lambda target: is_observer_module(modules.get(target)))
            converted = convert_pt2e(working)
            self._shared.check(converted)
        # q/dq are what each observer's convert() inserted, whatever their op names (fp16 casts, custom int4 ops)
        record = dataclasses.replace(self._stages["prepared"].record, qdq_roles=roles_from_diff(converted, sites))
        stage = Stage("converted", converted, record, info={"calibrated": self._calibrated}, shared=self._shared)
        stage.snapshot_before_handout = True  # taken when first read, from the graph convert made
        self._add(stage)
        if self._calibrated:
            self._stages["calibrated"].qparams_from(stage)
        return self

    @frozen_step
    def lower(self, backend: str = "inductor", example_inputs: Any = None, **options: Any) -> Run:
        """Lower a private copy of the converted graph with `backend` ("inductor", "xnnpack"): the "lowered"
        stage says what the backend made of each node (`pl.backend(run)`). `options` go to the backend."""
        module = backend_module(backend)
        if "converted" not in self._stages:
            raise Pt2eLensError(i18n.t("error.lower_needs_converted", backend=repr(backend)))
        converted = self._stages["converted"]
        if example_inputs is not None:
            inputs = check_example_inputs(example_inputs)
        else:
            inputs = self._example_inputs or inputs_from_graph(converted.graph_module)
        with task(i18n.t("progress.lower", backend=backend), 1, i18n.t("progress.unit.steps")) as shown:
            self._add(lowered_stage(converted, module.lower(converted.graph_module, inputs, **options)))
            shown.advance()
        return self

    def __repr__(self) -> str:
        return f"<pt2e_lens.Run stages={self.stages}>"


def _quantizer_failed(e: Pt2eLensError) -> bool:
    """The quantizer itself raised while annotating (not ComposableQuantizer's own overwrite check, which
    prepare_error already told apart as ChangedAnnotations)."""
    if isinstance(e.original, NotAnAnnotation):  # what it wrote is wrong in any export mode
        return False
    return e.original is not None and not isinstance(e, ChangedAnnotations)


def _checked_prepare(
    base: Stage,
    quantizer: Quantizer,
    on_annotated: Callable,
    qat: bool,
    annotated: dict,
    weights: SharedWeights | None,
) -> tuple[CheckedPrepare, bool]:
    """CheckedPrepare on the graph the quantizer's own flow annotates (see guards.py) → (done, whether it is
    the program's `ep.module(check_guards=False)`). A program's stage is re-made without torch.export's
    `_guards_fn` node for any quantizer that fails on it before annotating; a GraphModule the user gave is
    taken as it is."""
    program = base._program is not None
    # the quantizer's code runs on it: it holds pt2e-lens's own shared tensors and aliases of the user's
    shared = weights.ours if weights is not None else frozenset()
    dropped = program and from_executorch(quantizer)

    def prepared(fresh: Callable[[Any], torch.fx.GraphModule], callback: Callable | None) -> CheckedPrepare:
        loan = weights.loan() if weights is not None else None
        gm = fresh(loan)
        if loan is None or weights is None:
            return CheckedPrepare(gm, quantizer, on_annotated=callback, qat=qat)
        loan.keep()
        try:
            done = CheckedPrepare(gm, quantizer, on_annotated=callback, qat=qat)
        except BaseException:  # what the quantizer wrote before it failed goes nowhere
            weights.lent_back(loan.settle())
            raise
        # prepare may return a new root: the module it was given holds the aliases too
        weights.lent_back(loan.settle([done.prepared, gm]))
        return done

    guarded: list[bool] = []  # read before the quantizer runs: a failing transform_for_annotation may change gm

    def first_module(loan: Any) -> torch.fx.GraphModule:
        gm = base.fresh_module(check_guards=not dropped, shared=shared, lend=loan)
        guarded.append(has_guards(gm))
        return gm

    try:
        return prepared(first_module, on_annotated), dropped
    except Pt2eLensError as e:
        if not (guarded and guarded[0] and not annotated and _quantizer_failed(e)):
            raise
        first = e
    if weights is not None:
        weights.check(None)  # the failed attempt's writes do not reach the retry

    def retry_module(loan: Any) -> torch.fx.GraphModule:
        if program:
            return base.fresh_module(check_guards=False, shared=shared, lend=loan)
        return without_guards(base.fresh_module(shared=shared, lend=loan))

    try:
        done = prepared(retry_module, on_annotated if program else None)
    except Pt2eLensError:
        raise first from None  # not (only) the node: the graph the user sees explains it
    if program:
        return done, True
    # torchao fails on the user's graph as it is too: say which graph works
    name = type(quantizer).__name__
    raise Pt2eLensError(i18n.t("error.guards_fn", head=first.head, name=name), original=first.original)


def _export_mode_error(name: str, e: Pt2eLensError) -> Pt2eLensError:
    """Same start as the quantizer error (what raised, and why), then the export mode as the likely cause."""
    return Pt2eLensError(i18n.t("error.export_mode", head=e.head, name=name), original=e.original)


def capture(
    model: Any,
    example_inputs: Any,
    quantizer: Quantizer,
    calibration: Iterable[Any] | Callable | None = None,
    dynamic_batch: bool = False,
    decompose: Any = False,
    strict: bool = False,
    dynamic_shapes: Any = None,
    qat: bool = False,
    train: Iterable[Any] | Callable | None = None,
    loss: Callable | None = None,
) -> Run:
    """Every stage in one call: export, optional decompose, prepare, calibrate (if given), convert.

    `strict` and `dynamic_shapes` go to torch.export. If a calibration batch fails, the error carries the
    run so far as `e.run` (the good batches observed), to continue with `e.run.calibrate(rest).convert()`.
    `qat=True`: export in train mode (a copy of an eval-mode model), prepare_qat, `run.train(train, loss)`.
    """
    if not isinstance(qat, bool):  # as strict= is: "yes" would be taken as True
        raise Pt2eLensError(i18n.t("error.qat_type", got=repr(qat)))
    if train is not None and not qat:
        raise Pt2eLensError(i18n.t("error.qat_train_needs_qat"))
    steps = 3 + (decompose is not False) + (train is not None) + (calibration is not None)
    with task(i18n.t("progress.capture"), steps, i18n.t("progress.unit.steps")) as shown:
        if qat:
            model = train_mode_model(model)
        run = Run(model, example_inputs, dynamic_batch=dynamic_batch, strict=strict, dynamic_shapes=dynamic_shapes)
        shown.advance()
        if decompose is not False:
            run.decompose(decompose)
            shown.advance()
        if qat:
            run.prepare_qat(quantizer)
        else:
            run.prepare(quantizer)
        shown.advance()
        if train is not None:
            run.train(train, loss=loss)
            shown.advance()
        if calibration is not None:
            try:
                run.calibrate(calibration)
            except Pt2eLensError as e:
                message = str(e).rstrip(".。")
                err = Pt2eLensError(i18n.t("error.capture_run_so_far", message=message), original=e.original)
                err.run = run  # type: ignore[attr-defined]
                raise err from None
            shown.advance()
        run.convert()
        shown.advance()
    return run
