"""The float graph a why-analysis prepares on its own: from a model, Run, Stage, ExportedProgram or GraphModule."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import torch

from .. import i18n
from .._copy import own_tensors, private_copy
from .._graph import as_graph_module
from ..capture import Run, Stage
from ..capture.export import check_example_inputs, export
from ..capture.guards import from_executorch
from ..capture.qat import train_mode_model
from ..errors import Pt2eLensError, Pt2eLensWarning


def float_graph(
    x: Any, example_inputs: Any, what: str, qat: bool = False, quantizers: Sequence[Any] = ()
) -> torch.fx.GraphModule:
    """A private GraphModule to annotate: a Run's decomposed/exported stage, or x exported/copied.
    `qat=True` exports a model in train mode (a train-mode copy of an eval one), as pl.capture(…, qat=True).
    A graph pt2e-lens makes from a program is `ep.module(check_guards=False)` when one of `quantizers` is
    ExecuTorch's, as their flow annotates it (capture/guards.py); a GraphModule is taken as it is."""
    check_guards = not any(from_executorch(q) for q in quantizers)
    if isinstance(x, Run):  # the graph its prepare() started from
        x = x["decomposed" if "decomposed" in x.stages else "exported"]
    if isinstance(x, torch.nn.Module) and not isinstance(x, torch.fx.GraphModule):
        if example_inputs is None:
            raise Pt2eLensError(i18n.t("error.needs_example_inputs", what=what, cls=type(x).__name__))
        model = train_mode_model(x) if qat else x
        return export(model, check_example_inputs(example_inputs), dynamic_batch=False).module(
            check_guards=check_guards
        )
    if not check_guards and isinstance(x, Stage) and x.exported_program is not None:
        return x.fresh_module(check_guards=False)
    if not check_guards and isinstance(x, torch.export.ExportedProgram):
        return own_tensors(x.module(check_guards=False))
    return private_copy(as_graph_module(x, what))


def warn_folded_qat_quantizer(fake_quants: int, quantizer: Any, what: str, folded: int) -> None:
    """A QAT quantizer (its specs build fake-quantize modules) without qat=True, on a graph whose batch norms
    prepare_pt2e folded (`folded` of them) before annotating: annotated as prepare_pt2e does (torchao runs it),
    with one warning that prepare_qat_pt2e (qat=True) would annotate the batch norms' graph instead."""
    if fake_quants and folded:
        name = type(quantizer).__name__
        text = i18n.t("warning.qat_config_folded_annotate", what=what, quantizer=name, count=fake_quants, folded=folded)
        warnings.warn(text, Pt2eLensWarning, stacklevel=3)
