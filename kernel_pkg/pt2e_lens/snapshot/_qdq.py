"""Every quantize / dequantize node after convert: its qparams and the tensor it belongs to."""

from __future__ import annotations

import operator
from typing import Any

import torch

from ._values import flat as _flat
from .inserted import observer_of

_SCALE = ("scale", "scales")
_ZERO_POINT = ("zero_point", "zero_points")
_DTYPE = ("dtype", "output_dtype", "input_dtype")


def _bound_args(node: torch.fx.Node) -> dict[str, Any]:
    target = node.target
    schema = getattr(target, "_schema", None) or getattr(getattr(target, "default", None), "_schema", None)
    if schema is None:
        return dict(node.kwargs)
    names = [a.name for a in schema.arguments]
    bound = dict(zip(names, node.args))
    bound.update(node.kwargs)
    return bound


def _value(gm: torch.fx.GraphModule, v: Any) -> Any:
    """Literal qparams as they are; get_attr buffers (per-channel `_scale_N`) read from the module."""
    if isinstance(v, torch.fx.Node):
        if v.op == "get_attr":
            try:
                return operator.attrgetter(str(v.target))(gm)
            except AttributeError:
                return None
        return None
    return v


def _first(bound: dict, names: tuple[str, ...]) -> Any:
    for name in names:
        if name in bound:
            # the affine ops name both: the int dtype is output_dtype for q, input_dtype for dq
            if name == "output_dtype" and "input_dtype" in bound:
                continue
            return bound[name]
    return None


def _op_label(node: torch.fx.Node, short: str) -> str:
    """`quantize_per_tensor` for the `.default` overload, `quantize_per_tensor.tensor` (dynamic qparams) else."""
    overload = getattr(node.target, "_overloadname", None)
    return short if overload in (None, "default") else f"{short}.{overload}"


def qdq(gm: torch.fx.GraphModule, nodes_by_id: dict[str, dict], roles: dict | None = None) -> list[dict]:
    out = []
    for node in gm.graph.nodes:
        kind = nodes_by_id[node.name]["role"]
        if kind not in ("quantize", "dequantize"):
            continue
        bound = _bound_args(node)
        name = _op_label(node, nodes_by_id[node.name]["target"])
        granularity = "affine" if "affine" in name else "per_channel" if "per_channel" in name else "per_tensor"
        dtype = _first(bound, _DTYPE)
        axis = bound.get("axis")
        tensor = node.args[0] if node.args else None
        while isinstance(tensor, torch.fx.Node) and nodes_by_id[tensor.name]["role"] in (
            "quantize",
            "dequantize",
        ):
            tensor = tensor.args[0]
        qmin, qmax = bound.get("quant_min"), bound.get("quant_max")
        out.append(
            {
                "node": node.name,
                "kind": kind,
                "op": name,
                "granularity": granularity,
                "scale": _flat(_value(gm, _first(bound, _SCALE))),
                "zero_point": _flat(_value(gm, _first(bound, _ZERO_POINT))),
                "axis": axis if isinstance(axis, int) else None,
                "dtype": str(dtype).removeprefix("torch.") if dtype is not None else None,
                "quant_min": qmin if isinstance(qmin, int) else None,
                "quant_max": qmax if isinstance(qmax, int) else None,
                "tensor": tensor.name if isinstance(tensor, torch.fx.Node) else None,
                "from_observer": (roles[node.name][1] if roles and node.name in roles else observer_of(node)),
            }
        )
    return out
