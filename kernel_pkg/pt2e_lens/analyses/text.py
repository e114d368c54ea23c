"""The one place pt2e-lens words edges, nodes, ranges and specs: tables, findings and error messages use it."""

from __future__ import annotations

from .. import i18n
from ..snapshot.keys import Key, key_of


def key_text(key: Key) -> str:
    """A table cell: `conv2d→relu` for an input edge, `relu (output)` for a node's output (zh-TW: `relu（輸出）`)."""
    return f"{key[1]}→{key[2]}" if key[0] == "edge" else i18n.t("course.key.output", node=key[1])


def key_phrase(key: Key) -> str:
    """The same inside a sentence: `edge conv2d → relu`, `the output of relu`."""
    if key[0] == "edge":
        return i18n.t("key.edge", src=key[1], dst=key[2])
    return i18n.t("key.output_of", node=key[1])


def at_text(at: dict) -> str:
    """key_text of the contract's EdgeOrNode dict."""
    return key_text(key_of(at))


def range_text(lo, hi) -> str:
    return "" if lo is None and hi is None else f"[{lo}, {hi}]"


def spec_text(spec: dict | None) -> str:
    """A spec dict of the contract: `int8 per_tensor_affine [-128, 127] (HistogramObserver)`,
    `SharedQuantizationSpec → x→conv2d`, `Derived ← … (…)`, `FixedQParams …`."""
    if spec is None:
        return "—"
    kind = spec["kind"]
    if kind == "SharedQuantizationSpec":
        return f"SharedQuantizationSpec → {at_text(spec['shared_with'])}"
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
