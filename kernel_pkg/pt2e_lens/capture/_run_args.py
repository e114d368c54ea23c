"""`pl.Run(...)`'s arguments, checked before anything is exported: each mistake is one line that says what
to pass instead (a Run or a Stage where a model goes, example inputs that would be ignored, a non-bool flag)."""

from __future__ import annotations

from typing import Any

import torch

from .. import i18n
from ..errors import Pt2eLensError
from .stage import Stage


def check_run_args(model: Any, example_inputs: Any, dynamic_batch: Any, is_run: bool) -> None:
    """`is_run`: the model is a pl.Run itself (told by run.py, which this module cannot import)."""
    if is_run:
        raise Pt2eLensError(i18n.t("error.guard_run_of_run"))
    if isinstance(model, Stage):
        raise Pt2eLensError(i18n.t("error.guard_run_of_stage", stage=repr(model.name)))
    if not isinstance(dynamic_batch, bool):  # as strict= is: "yes" would be taken as True
        raise Pt2eLensError(i18n.t("error.guard_dynamic_batch_type", got=repr(dynamic_batch)))
    graph = isinstance(model, (torch.export.ExportedProgram, torch.fx.GraphModule))
    if graph and example_inputs is not None:
        raise Pt2eLensError(i18n.t("error.guard_run_inputs_ignored", cls=type(model).__name__))
    if isinstance(model, torch.nn.Module) and not graph:
        _check_names(model)
    if dynamic_batch and not graph and isinstance(example_inputs, (tuple, list)):
        one = [i for i, x in enumerate(example_inputs) if isinstance(x, torch.Tensor) and x.dim() and x.shape[0] == 1]
        if one:  # torch.export specialises a size-1 dimension: the batch could never vary
            raise Pt2eLensError(i18n.t("error.guard_dynamic_batch_one", i=one[0]))


# characters torch's code generator writes into string literals unescaped: the generated forward would not parse
_UNWRITABLE = ('"', "\\", "\n", "\r")


def _check_names(model: torch.nn.Module) -> None:
    named = [n for n, _ in model.named_modules()] + [n for n, _ in model.named_parameters()]
    named += [n for n, _ in model.named_buffers()]
    for name in named:
        bad = next((c for c in _UNWRITABLE if c in name), None)
        if bad is not None:
            raise Pt2eLensError(i18n.t("error.guard_module_name", name=repr(name), char=repr(bad)))
