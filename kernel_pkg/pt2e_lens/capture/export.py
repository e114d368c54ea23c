"""torch.export with one-line errors and an optional symbolic batch dimension."""

from __future__ import annotations

from typing import Any

import torch

from .. import i18n
from ..errors import Pt2eLensError, first_line


def check_example_inputs(example_inputs: Any) -> tuple:
    if isinstance(example_inputs, list):
        example_inputs = tuple(example_inputs)
    if not isinstance(example_inputs, tuple):
        got = type(example_inputs).__name__
        raise Pt2eLensError(i18n.t("error.inputs_not_tuple", got=got))
    return example_inputs


def _batch_dims(example_inputs: tuple) -> tuple:
    batch = torch.export.Dim("batch", min=1, max=1 << 16)
    return tuple({0: batch} if isinstance(t, torch.Tensor) and t.dim() > 0 else None for t in example_inputs)


def _check_dtypes(model: torch.nn.Module, example_inputs: tuple) -> None:
    """A float64 input to a float32 model exports (fake tensors) and fails only at calibration: say it now."""
    weights = {p.dtype for p in model.parameters() if p.is_floating_point()}
    if len(weights) != 1:
        return  # no float weights, or mixed on purpose
    [dtype] = weights
    for i, t in enumerate(example_inputs):
        if isinstance(t, torch.Tensor) and t.is_floating_point() and t.dtype != dtype:
            raise Pt2eLensError(
                i18n.t(
                    "error.input_dtype",
                    index=i,
                    got=str(t.dtype).removeprefix("torch."),
                    want=str(dtype).removeprefix("torch."),
                )
            )


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
        raise Pt2eLensError(i18n.t("error.run_needs_model", got=type(model).__name__))
    if not isinstance(strict, bool):
        raise Pt2eLensError(i18n.t("error.strict_type", got=repr(strict)))
    if dynamic_shapes is not None and dynamic_batch:
        raise Pt2eLensError(i18n.t("error.dynamic_both"))
    if dynamic_shapes is None and dynamic_batch:
        dynamic_shapes = _batch_dims(example_inputs)
    _check_dtypes(model, example_inputs)
    other = "strict=False" if strict else "strict=True"
    try:
        return torch.export.export(model, example_inputs, dynamic_shapes=dynamic_shapes, strict=strict)
    except Exception as e:
        hint = i18n.t("error.export_hint_batch") if dynamic_batch and "batch" in str(e) else ""
        raise Pt2eLensError(
            i18n.t(
                "error.export_failed",
                mode=export_mode(strict),
                cls=type(model).__name__,
                reason=first_line(e),
                hint=hint,
                other=other,
            ),
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
        raise Pt2eLensError(i18n.t("error.fixed_batch_graph", fixed=fixed))
