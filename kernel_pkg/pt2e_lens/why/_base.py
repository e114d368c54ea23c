"""The float graph a why-analysis prepares on its own: from a model, Run, Stage, ExportedProgram or GraphModule."""

from __future__ import annotations

import copy
import warnings
from typing import Any

import torch

from .._copy import private_copy
from .._graph import as_graph_module
from .._torchao import Quantizer
from ..capture._export import check_example_inputs, export
from ..errors import Pt2eLensError


def float_graph(x: Any, example_inputs: Any, what: str) -> torch.fx.GraphModule:
    """A private GraphModule to annotate: a Run's decomposed/exported stage, or x exported/copied."""
    stages = getattr(x, "stages", None)
    if stages is not None and hasattr(x, "latest"):  # a Run: the graph its prepare() started from
        x = x["decomposed" if "decomposed" in stages else "exported"]
    if isinstance(x, torch.nn.Module) and not isinstance(x, torch.fx.GraphModule):
        if example_inputs is None:
            raise Pt2eLensError(f"{what} needs example_inputs to export the {type(x).__name__}, e.g. (x,).")
        return export(x, check_example_inputs(example_inputs), dynamic_batch=False).module()
    return private_copy(as_graph_module(x, what))


def check_quantizer(q: Any, what: str) -> Quantizer:
    if not isinstance(q, Quantizer):
        raise Pt2eLensError(f"{what} needs torchao Quantizer objects, got {type(q).__name__}.")
    return q


def quantizer_copy(q: Quantizer) -> Quantizer:
    """A copy to run, so annotate() can keep no state on the user's quantizer; the quantizer itself if it won't copy."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return copy.deepcopy(q)
    except Exception:
        return q
