"""One prepare call seen by `pl.record`, and the `pl.Run` made from it when the runs are first read.

Inside the block only what would be lost later is taken: a private copy of the module the user passed to
prepare (prepare changes it in place), the programs it came from, and at convert a copy of what the user's
calibration or training changed in the prepared module (the observers as calibrated). The Run itself (its
own prepare of the copy through the quantizer's public `annotate`, its convert, snapshots, lowerings) is made
after, on first read: that keeps the block's cost near the plain script's (bench/record.py).
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any

import torch

from .. import i18n
from .._copy import own_program, private_copy
from ._calibrated import Baseline, remake
from .run import Run
from .stage import Stage


@dataclasses.dataclass
class Prepared:
    module: torch.fx.GraphModule  # private copy of what the user passed to prepare, taken before it ran
    quantizer: Any
    qat: bool
    program: Any = None  # the ExportedProgram the module came from (ep.module()), if seen
    parent: Any = None  # (program run_decompositions was called on, table label), if it was decomposed
    inputs: tuple | None = None  # what the program was exported with
    baseline: Baseline | None = None  # the user's prepared module as prepare returned it
    changes: Any = None  # at convert: what calibration/training changed (a dict), or a whole private copy
    converted: bool = False
    lowerings: list[str] = dataclasses.field(default_factory=list)
    run: Run | None = None
    failed: bool = False  # making its Run failed once (rec.problems says why)

    def watch(self, prepared: torch.fx.GraphModule) -> None:
        # the stage it will be compared against does not exist yet: a placeholder never handed out
        self.baseline = Baseline(types.SimpleNamespace(handed_out=False), prepared)

    def at_convert(self, prepared: torch.fx.GraphModule) -> None:
        """The user's prepared module as the user's convert is about to consume it."""
        assert self.baseline is not None
        changes = self.baseline.changes(prepared)
        self.changes = private_copy(prepared) if changes is None else changes
        self.converted = True


def keep_programs(entry: Prepared) -> None:
    """QAT training writes into the tensors the user's program shares with the prepared module: copy them now."""
    if entry.program is not None:
        entry.program = own_program(entry.program)
    if entry.parent is not None:
        entry.parent = (own_program(entry.parent[0]), entry.parent[1])


def build(entry: Prepared) -> Run:
    """The Run of one recorded prepare: its stages as pl.Run makes them, from what the block kept."""
    if entry.program is None:
        run = Run(entry.module)
    else:
        root = entry.parent[0] if entry.parent is not None else entry.program
        run = Run(root)
        if entry.inputs is not None:
            run._example_inputs = entry.inputs
        if entry.parent is not None:
            own = own_program(entry.program)
            run._add(Stage("decomposed", make=own.module, exported_program=own, info={"table": entry.parent[1]}))
    run._prepare(entry.quantizer, entry.qat, module=private_copy(entry.module))
    if entry.changes is not None and _moved(entry.changes):
        name = "trained" if entry.qat else "calibrated"
        record = dataclasses.replace(run["prepared"].record, qparams={})
        info: dict[str, Any] = {"steps": None} if entry.qat else {"batches": None}
        if isinstance(entry.changes, torch.fx.GraphModule):
            stage = Stage(name, entry.changes, record, info=info)
        else:
            base, changes = run["prepared"], entry.changes
            if entry.baseline is None or not entry.baseline.holds_tensors_of(base.own_graph()):
                raise ValueError(i18n.t("error.record_prepare_differs"))
            stage = Stage(name, record=record, info=info, make=lambda: remake(base, changes)).made_from(base)
        run._add(stage)
        run._calibrated = name == "calibrated"
    if entry.converted:
        run._working = run._baseline = None  # convert starts from the newest stage's graph
        run.convert()
    return run


def _moved(changes: Any) -> bool:
    return isinstance(changes, torch.fx.GraphModule) or bool(changes["tensors"] or changes["modules"])
