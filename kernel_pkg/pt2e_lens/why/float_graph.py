"""The float graph a why-analysis prepares on its own: from a model, Run, Stage, ExportedProgram or GraphModule."""

from __future__ import annotations

from typing import Any

import torch

from .. import i18n
from .._copy import private_copy
from .._graph import as_graph_module
from ..capture import Run
from ..capture.export import check_example_inputs, export
from ..errors import Pt2eLensError


def float_graph(x: Any, example_inputs: Any, what: str) -> torch.fx.GraphModule:
    """A private GraphModule to annotate: a Run's decomposed/exported stage, or x exported/copied."""
    if isinstance(x, Run):  # the graph its prepare() started from
        x = x["decomposed" if "decomposed" in x.stages else "exported"]
    if isinstance(x, torch.nn.Module) and not isinstance(x, torch.fx.GraphModule):
        if example_inputs is None:
            raise Pt2eLensError(i18n.t("error.needs_example_inputs", what=what, cls=type(x).__name__))
        return export(x, check_example_inputs(example_inputs), dynamic_batch=False).module()
    return private_copy(as_graph_module(x, what))
