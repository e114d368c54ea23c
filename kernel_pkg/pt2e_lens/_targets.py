"""Names of FX node targets, and which of them are quantize / dequantize ops."""

from __future__ import annotations

from typing import Any

_QDQ_NAMESPACES = ("quantized_decomposed", "torchao")
# the batch-norm ops (short names) export and decompositions produce; prepare_pt2e folds them into conv2d
BATCH_NORMS = ("batch_norm", "_native_batch_norm_legit_no_training", "_native_batch_norm_legit", "native_batch_norm")


def short_name(target: Any) -> str:
    """`aten.conv2d.default` → `conv2d`; `operator.getitem` → `getitem`; module names as they are."""
    if isinstance(target, str):
        return target
    packet = getattr(target, "_overloadpacket", None)
    if packet is not None:
        return packet.__name__
    return getattr(target, "__name__", str(target))


def full_name(target: Any) -> str:
    """`aten.conv2d.default`, `_operator.getitem`, or the module/attribute path."""
    if isinstance(target, str):
        return target
    if hasattr(target, "_overloadpacket"):
        return str(target)
    qualified = getattr(target, "_qualified_op_name", None)  # an OpOverloadPacket: `torchao::quantize_affine`
    if isinstance(qualified, str):
        return qualified.replace("::", ".")
    module = getattr(target, "__module__", None)
    name = getattr(target, "__qualname__", None) or getattr(target, "__name__", None)
    return f"{module}.{name}" if module and name else str(target)


def quantization_op(target_full: str) -> bool:
    """An op of the quantization libraries' own namespaces (`quantized_decomposed.choose_qparams.tensor`,
    `torchao.choose_qparams_affine`, …): what convert inserts, never the model's own computation."""
    return target_full.partition(".")[0] in _QDQ_NAMESPACES


def qdq_kind(target: Any) -> str | None:
    """`quantize` / `dequantize` for the q/dq ops convert_pt2e emits, else None."""
    namespace = getattr(target, "namespace", None)
    if namespace is None:  # an OpOverloadPacket (convert of affine observers emits those)
        namespace = getattr(target, "_qualified_op_name", "").partition("::")[0]
    if namespace not in _QDQ_NAMESPACES:
        return None
    name = short_name(target)
    if name.startswith("dequantize"):
        return "dequantize"
    if name.startswith("quantize"):
        return "quantize"
    return None
