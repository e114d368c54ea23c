"""The float graph a why-analysis prepares on its own: from a model, Run, Stage, ExportedProgram or GraphModule."""

from __future__ import annotations

from typing import Any

import torch

from .. import i18n
from .._copy import private_copy
from .._graph import as_graph_module
from ..capture import Run
from ..capture.export import check_example_inputs, export
from ..capture.qat import train_mode_model
from ..errors import Pt2eLensError


def float_graph(x: Any, example_inputs: Any, what: str, qat: bool = False) -> torch.fx.GraphModule:
    """A private GraphModule to annotate: a Run's decomposed/exported stage, or x exported/copied.
    `qat=True` exports a model in train mode (a train-mode copy of an eval one), as pl.capture(…, qat=True)."""
    if isinstance(x, Run):  # the graph its prepare() started from
        x = x["decomposed" if "decomposed" in x.stages else "exported"]
    if isinstance(x, torch.nn.Module) and not isinstance(x, torch.fx.GraphModule):
        if example_inputs is None:
            raise Pt2eLensError(i18n.t("error.needs_example_inputs", what=what, cls=type(x).__name__))
        model = train_mode_model(x) if qat else x
        return export(model, check_example_inputs(example_inputs), dynamic_batch=False).module()
    return private_copy(as_graph_module(x, what))


def refuse_qat_quantizer(fake_quants: int, quantizer: Any, what: str, folded: int) -> None:
    """A QAT quantizer (its specs build fake-quantize modules) without qat=True, on a graph whose batch norms
    prepare_pt2e folded (`folded` of them) before annotating: one line, as pl.capture refuses it — the counts
    would be PTQ's, not what QAT prepares. With nothing folded prepare_pt2e runs it as torchao's tests do."""
    if fake_quants and folded:
        name = type(quantizer).__name__
        raise Pt2eLensError(
            i18n.t("error.qat_quantizer_needs_qat", what=what, quantizer=name, count=fake_quants, folded=folded)
        )
