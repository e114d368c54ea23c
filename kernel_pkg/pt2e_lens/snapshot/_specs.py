"""Quantization specs (deduplicated) and the annotation of every annotated node."""

from typing import Any

import torch

from .._torchao import (
    Q_ANNOTATION_KEY,
    DerivedQuantizationSpec,
    FixedQParamsQuantizationSpec,
    SharedQuantizationSpec,
)


def edge_or_node(x: Any) -> dict:
    """The contract's EdgeOrNode for torchao's (producer, consumer) tuple or Node."""
    if isinstance(x, tuple):
        return {"edge": [x[0].name, x[1].name]}
    return {"node": x.name}


def _name(value: Any) -> str | None:
    if value is None:
        return None
    return str(value).removeprefix("torch.")


def observer_class_name(ctr: Any) -> str | None:
    """The class behind `Observer.with_args(...)` (a partial wrapper) or a plain class."""
    if ctr is None:
        return None
    inner = getattr(ctr, "p", None)
    func = getattr(inner, "func", None) if inner is not None else None
    target = func or ctr
    return getattr(target, "__name__", type(target).__name__)


def spec_fields(spec: Any) -> dict:
    kind = type(spec).__name__
    out = {
        "kind": kind if kind in _KINDS else "QuantizationSpec",
        "dtype": _name(getattr(spec, "dtype", None)),
        "qscheme": _name(getattr(spec, "qscheme", None)),
        "quant_min": getattr(spec, "quant_min", None),
        "quant_max": getattr(spec, "quant_max", None),
        "ch_axis": getattr(spec, "ch_axis", None),
        "is_dynamic": getattr(spec, "is_dynamic", None),
        "observer": observer_class_name(getattr(spec, "observer_or_fake_quant_ctr", None)),
        "shared_with": None,
        "derived_from": None,
        "scale": None,
        "zero_point": None,
    }
    if isinstance(spec, SharedQuantizationSpec):
        out["shared_with"] = edge_or_node(spec.edge_or_node)
    if isinstance(spec, DerivedQuantizationSpec):
        out["derived_from"] = [edge_or_node(e) for e in spec.derived_from]
    if isinstance(spec, FixedQParamsQuantizationSpec):
        out["scale"] = float(spec.scale)
        out["zero_point"] = int(spec.zero_point)
    return out


_KINDS = {
    "QuantizationSpec",
    "SharedQuantizationSpec",
    "DerivedQuantizationSpec",
    "FixedQParamsQuantizationSpec",
}


class SpecTable:
    """Gives each distinct spec (by content) one id, so a graph of 1,000 convs lists a handful of specs."""

    def __init__(self) -> None:
        self.specs: list[dict] = []
        self._by_obj: dict[int, str] = {}
        self._by_content: dict[str, str] = {}
        self._keep: list[Any] = []  # keep spec objects alive so their id() stays unique

    def id_of(self, spec: Any) -> str | None:
        if spec is None:
            return None
        known = self._by_obj.get(id(spec))
        if known is not None:
            return known
        fields = spec_fields(spec)
        key = repr(sorted(fields.items()))
        sid = self._by_content.get(key)
        if sid is None:
            sid = f"s{len(self.specs)}"
            self._by_content[key] = sid
            self.specs.append({"id": sid, **fields})
        self._by_obj[id(spec)] = sid
        self._keep.append(spec)
        return sid


def annotations(
    gm: torch.fx.GraphModule, specs: SpecTable, blame: dict[str, str], skipped_by: dict[str, list[str]]
) -> list[dict]:
    out = []
    for node in gm.graph.nodes:
        ann = node.meta.get(Q_ANNOTATION_KEY)
        if ann is None:
            continue
        out.append(
            {
                "node": node.name,
                "inputs": [{"src": src.name, "spec": specs.id_of(spec)} for src, spec in ann.input_qspec_map.items()],
                "output": specs.id_of(ann.output_qspec),
                "annotated": bool(ann._annotated),
                "allow_implicit_sharing": bool(ann.allow_implicit_sharing),
                "quantizer": blame.get(node.name),
                "skipped_by": list(skipped_by.get(node.name, [])),
            }
        )
    return out
