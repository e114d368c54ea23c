"""One recorded step of the PT2E pipeline: a private graph copy and its snapshot."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Collection
from functools import cached_property
from typing import Any

import torch

from .._copy import own_tensors, private_copy
from .._graph import HasGraph
from ..analyses.findings import with_findings
from ..analyses.why_lines import with_why
from ..display_hook import Displayable
from ..snapshot import CaptureRecord, HasSnapshot, Snapshot, build

STAGE_ORDER = ("exported", "decomposed", "annotated", "prepared", "trained", "calibrated", "converted", "lowered")


class Stage(HasGraph, HasSnapshot, Displayable):
    """A stage's graph is private to pt2e-lens, never the user's object.

    Copies are what make capture cost more than plain torchao, so a stage whose graph can be re-made
    (`ep.module()`, or the prepared copy without its observers) gets `make` instead of a graph, and builds
    it the first time someone asks.
    """

    def __init__(
        self,
        name: str,
        graph_module: torch.fx.GraphModule | None = None,
        record: CaptureRecord | None = None,
        exported_program: torch.export.ExportedProgram | None = None,
        info: dict[str, Any] | None = None,
        make: Callable[[], torch.fx.GraphModule] | None = None,
        snapshot: Snapshot | None = None,
        shared: Any = None,
    ):
        if graph_module is None and make is None:
            raise ValueError("a Stage needs a graph_module or a way to make one")
        self.name = name
        self._graph_module, self._make = graph_module, make
        self.record = record if record is not None else CaptureRecord()
        self._program = exported_program
        self._program_out = False  # handed out: it has its own copies of the shared weights
        self.info = info or {}
        # taken when the graph was live (the annotated stage); its why lines wait until it is first viewed
        self._taken = snapshot
        # stages still to be made from this one's graph (a lazy calibrated stage): made before it is handed out
        self._dependents: weakref.WeakSet[Stage] = weakref.WeakSet()
        self.handed_out = False  # its graph went to someone who may have changed it since
        # the Run's SharedWeights (capture/_shared.py): weights this stage's graph may share with other stages
        self._shared = shared
        # the converted stage whose q/dq give this (calibrated) stage's qparams: read when its snapshot is built
        self._qparams_from: Stage | None = None
        # a stage whose snapshot is taken lazily, but before its graph is handed out (the user may change it)
        self.snapshot_before_handout = False

    @property
    def graph_module(self) -> torch.fx.GraphModule:
        # whoever gets the graph may change it (run it, edit it): what is made from it is made first
        for later in list(self._dependents):
            later.own_graph()
        self._dependents.clear()
        if self.snapshot_before_handout:
            self.snapshot  # noqa: B018  # built (and cached) from the graph as it is now
        gm = self.own_graph()
        if not self.handed_out and self._shared is not None:
            self._shared.unshare(gm)  # whatever the user does with it stays in this stage
        self.handed_out = True
        return gm

    def own_graph(self) -> torch.fx.GraphModule:
        """The graph, for pt2e-lens's own reading and copying (never handed out: see graph_module)."""
        if self._graph_module is None:
            self._graph_module = self._remake()
        return self._graph_module

    @property
    def exported_program(self) -> torch.export.ExportedProgram | None:
        """The stage's program (decomposed / exported ones); handed out with its own copies of shared weights."""
        if self._program is not None and not self._program_out and self._shared is not None:
            self._shared.unshare_program(self._program)
        self._program_out = True
        return self._program

    def sharing(self, shared: Any) -> Stage:
        """This stage's graph may share weights held by `shared` (the Run's SharedWeights): copied when handed out."""
        self._shared = shared
        return self

    def qparams_from(self, converted: Stage) -> None:
        """convert_pt2e computed this stage's observers' qparams: its snapshot reads them from `converted`'s q/dq
        (HistogramObserver's calculate_qparams costs ~0.3 s per observer) when it is built, not before."""
        self._qparams_from = converted

    def made_from(self, base: Stage) -> Stage:
        """This stage's graph is made from `base`'s when first asked for: `base` makes it before handing its own out."""
        base._dependents.add(self)
        return self

    def _remake(self) -> torch.fx.GraphModule:
        assert self._make is not None  # __init__ took one of the two
        return self._make()

    def fresh_module(
        self, check_guards: bool = True, shared: Collection[int] = (), lend: Any = None
    ) -> torch.fx.GraphModule:
        """A new private module of this stage for a step that mutates it (prepare). `check_guards=False`: a
        program's stage made as `ep.module(check_guards=False)`, without torch.export's `_guards_fn` node.
        `shared`: ids of tensors it may hold as they are (the Run's SharedWeights); `lend`: a Loan
        (capture/_lent.py) whose aliases it holds instead of copies of the user's Parameters."""
        alias = lend.alias if lend is not None else None
        if not check_guards and self._program is not None:
            return own_tensors(self._program.module(check_guards=False), shared, lend=alias)
        if self._graph_module is None:
            # ep.module() is a new graph on every call, but its tensors are the program's: clone them
            return own_tensors(self._remake(), shared, lend=alias)
        return private_copy(self._graph_module, shared)

    @cached_property
    def snapshot(self) -> Snapshot:
        if self._qparams_from is not None:
            converted, self._qparams_from = self._qparams_from, None
            qdq = converted.snapshot.qdq
            self.record.qparams.update(
                {q["from_observer"]: (q["scale"], q["zero_point"]) for q in qdq if q["from_observer"]}
            )
        if self._taken is not None:
            snap, self._taken = self._taken, None
        else:  # the findings run here, where the problems prepare recorded are known
            snap = with_findings(build(self.own_graph(), stage=self.name, record=self.record), self.record.problems)
        return with_why(snap, self.record.annotators)

    def __repr__(self) -> str:
        return f"<Stage {self.name!r}: {len(self.snapshot.nodes)} nodes>"
