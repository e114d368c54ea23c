"""torch.export with one-line errors and an optional symbolic batch dimension."""

from __future__ import annotations

from typing import Any

import torch

from ..errors import Pt2eLensError, first_line


def check_example_inputs(example_inputs: Any) -> tuple:
    if isinstance(example_inputs, list):
        example_inputs = tuple(example_inputs)
    if not isinstance(example_inputs, tuple):
        got = type(example_inputs).__name__
        raise Pt2eLensError(f"example_inputs must be a tuple of inputs, e.g. (x,) — got a {got}; wrap it: (x,).")
    return example_inputs


def _batch_dims(example_inputs: tuple) -> tuple:
    batch = torch.export.Dim("batch", min=1, max=1 << 16)
    return tuple({0: batch} if isinstance(t, torch.Tensor) and t.dim() > 0 else None for t in example_inputs)


def export_mode(strict: bool) -> str:
    return "strict" if strict else "non-strict"


def export(
    model: torch.nn.Module,
    example_inputs: tuple,
    dynamic_batch: bool,
    strict: bool = False,
    dynamic_shapes: Any = None,
) -> torch.export.ExportedProgram:
    if not isinstance(model, torch.nn.Module):
        raise Pt2eLensError(
            f"pl.Run needs an nn.Module, a GraphModule or an ExportedProgram, got {type(model).__name__}."
        )
    if not isinstance(strict, bool):
        raise Pt2eLensError(f"strict= is the export mode: True or False, got {strict!r}.")
    if dynamic_shapes is not None and dynamic_batch:
        raise Pt2eLensError("give either dynamic_batch=True or dynamic_shapes=..., not both.")
    if dynamic_shapes is None and dynamic_batch:
        dynamic_shapes = _batch_dims(example_inputs)
    other = "strict=False" if strict else "strict=True"
    try:
        return torch.export.export(model, example_inputs, dynamic_shapes=dynamic_shapes, strict=strict)
    except Exception as e:
        hint = (
            " (the model specialises on the batch size: try dynamic_batch=False)"
            if dynamic_batch and "batch" in str(e)
            else ""
        )
        raise Pt2eLensError(
            f"torch.export ({export_mode(strict)} export mode) could not capture {type(model).__name__}: "
            f"{first_line(e)}{hint}. Try the other export mode ({other}), fix the model code it points at, "
            f"or pass a GraphModule/ExportedProgram you exported yourself.",
            original=e,
        ) from None


def static_batch(graph: torch.fx.Graph, inputs: set[str] | None = None) -> int | None:
    """The fixed batch size of a graph's tensor inputs, or None when any input's batch is symbolic."""
    sizes = []
    for node in graph.nodes:
        if node.op != "placeholder" or (inputs is not None and node.name not in inputs):
            continue
        val = node.meta.get("val")
        if isinstance(val, torch.Tensor) and val.dim() > 0:
            if not isinstance(val.shape[0], int):
                return None
            sizes.append(val.shape[0])
    return sizes[0] if sizes else None


def require_dynamic_batch(model: torch.export.ExportedProgram | torch.fx.GraphModule) -> None:
    """pl.Run(graph, dynamic_batch=True) cannot re-export a graph: say so instead of ignoring the flag."""
    if isinstance(model, torch.export.ExportedProgram):
        fixed = static_batch(model.graph, set(model.graph_signature.user_inputs))
    else:
        fixed = static_batch(model.graph)
    if fixed is not None:
        raise Pt2eLensError(
            f"pl.Run(graph, dynamic_batch=True): this graph was exported with a fixed batch size of {fixed}, and "
            f"dynamic_batch only applies when pl.Run exports the model — pass the model itself "
            f"(pl.Run(model, example_inputs, dynamic_batch=True)) or export with a dynamic batch "
            f"(pt2e_lens.examples.export_module does)."
        )
