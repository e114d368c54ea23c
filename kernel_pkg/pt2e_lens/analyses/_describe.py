"""Short human text for specs and edge/node keys, shared by the annotation and observer tables."""

from __future__ import annotations


def at_text(at: dict) -> str:
    return f"{at['edge'][0]}→{at['edge'][1]}" if "edge" in at else f"{at['node']} (output)"


def range_text(lo, hi) -> str:
    return "" if lo is None and hi is None else f"[{lo}, {hi}]"


def spec_text(spec: dict | None) -> str:
    if spec is None:
        return "—"
    kind = spec["kind"]
    if kind == "SharedQuantizationSpec":
        return f"Shared → {at_text(spec['shared_with'])}"
    if kind == "FixedQParamsQuantizationSpec":
        return f"FixedQParams {spec['dtype']} scale={spec['scale']:.6g} zp={spec['zero_point']}"
    parts = [spec["dtype"], spec["qscheme"], range_text(spec["quant_min"], spec["quant_max"])]
    if spec["ch_axis"] is not None and "channel" in (spec["qscheme"] or ""):
        parts.append(f"axis {spec['ch_axis']}")
    if spec["is_dynamic"]:
        parts.append("dynamic")
    text = " ".join(p for p in parts if p)
    if kind == "DerivedQuantizationSpec":
        return f"Derived ← {', '.join(at_text(a) for a in spec['derived_from'])} ({text})"
    return f"{text} ({spec['observer']})" if spec["observer"] else text
