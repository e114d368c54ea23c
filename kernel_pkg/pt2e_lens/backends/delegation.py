"""What XNNPACK took: the lowered ExecuTorch graph read back onto the converted graph's nodes.

Every ExecuTorch op node keeps `meta["from_node"]`, the chain of nodes it was made from. Walking that chain
to the first node of the converted graph (same graph id, same name) says which converted node it came
from. Nodes inside a `lowered_module_N` (its `original_module`) are delegated to partition N; call_function
nodes of the top graph run ExecuTorch's portable kernels. Inside a delegate, an op runs int8 when it sits
between dequantize and quantize (XNNPACK's static-quant pattern) or reads a dynamically quantized input, and its
XNNPACK partitioner config supports that precision (GELU's, hardswish's, sigmoid's are FP32 only).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import torch

from .. import i18n
from .._targets import full_name, qdq_kind, short_name
from .record import NodeOutcome

_LOWERED = re.compile(r"lowered_module_(\d+)$")
# activations XNNPACK fuses into the conv / linear before them (an output clamp), so they share its precision
_FUSED_ACTIVATIONS = frozenset({"relu", "hardtanh", "clamp"})


@dataclasses.dataclass(frozen=True)
class EdgeNode:
    """One call_function node of the lowered program, as get_delegation_info counts it."""

    name: str  # the ExecuTorch graph's node name (get_delegation_info's op type is this minus a `_N` suffix)
    op: str  # e.g. `aten.convolution.default`
    partition: int | None  # the lowered module's id, None for a portable-kernel node
    int8: bool = False


def converted_source(node: torch.fx.Node, graph_id: int, names: frozenset[str]) -> str | None:
    """The converted graph's node this node was made from: the nearest entry of its from_node chain."""
    stack = list(reversed(node.meta.get("from_node") or []))
    while stack:
        src = stack.pop()
        if src.graph_id == graph_id and src.name in names:
            return src.name
        stack.extend(reversed(src.from_node or []))
    return None


def op_name(target: Any) -> str:
    """`aten.convolution.default`: an ExecuTorch edge op's own name (its repr is the whole schema)."""
    name = getattr(target, "__name__", None)
    return name if isinstance(name, str) and "." in name else full_name(target)


def _is_qdq(node: torch.fx.Node) -> bool:
    return node.op == "call_function" and (
        qdq_kind(node.target) is not None or "choose_qparams" in full_name(node.target)
    )


def _is_dq(node: Any) -> bool:
    return isinstance(node, torch.fx.Node) and node.op == "call_function" and qdq_kind(node.target) == "dequantize"


def _is_dynamic_dq(node: torch.fx.Node) -> bool:
    """A dequantize whose scale is computed at run time (choose_qparams): dynamic quantization."""
    return _is_dq(node) and len(node.args) > 1 and isinstance(node.args[1], torch.fx.Node)


def config_name(op: str) -> str:
    """`aten.convolution.default` → `convolution.default`: how XNNPACK's partitioner configs name their op."""
    parts = op.split(".")
    return ".".join(parts[1:] if len(parts) > 2 else parts)


class _Precision:
    """Which precision each delegated node of one lowered module runs in."""

    def __init__(self, params: frozenset[str], precisions: dict[str, frozenset[str]]):
        self.params = params  # the delegate's weights, biases and constants
        self.precisions = precisions  # config name -> what its XNNPACK config supports (FP32, STATIC_QUANT, ...)

    def data_inputs(self, node: torch.fx.Node) -> list[torch.fx.Node]:
        """Inputs that carry activations, not the delegate's parameters, buffers or constants."""
        return [a for a in node.all_input_nodes if not (a.op == "placeholder" and a.name in self.params)]

    def supports(self, node: torch.fx.Node, precision: str) -> bool:
        return precision in self.precisions.get(config_name(op_name(node.target)), frozenset())

    def fused_into_int8(self, node: torch.fx.Node) -> bool:
        """An activation XNNPACK folds into the int8 op before it (conv/linear + relu share one kernel)."""
        inputs = self.data_inputs(node)
        if short_name(node.target) not in _FUSED_ACTIVATIONS or len(inputs) != 1 or len(inputs[0].users) != 1:
            return False
        producer = inputs[0]
        return producer.op == "call_function" and not _is_qdq(producer) and self.int8(producer)

    def int8(self, node: torch.fx.Node) -> bool:
        if _is_qdq(node):
            return True  # XNNPACK's own (de)quantize conversions
        if self.fused_into_int8(node):
            return True
        inputs = self.data_inputs(node)
        if not inputs or not all(_is_dq(a) for a in inputs):
            return False  # some activation arrives in fp32
        if any(_is_dynamic_dq(a) for a in inputs):
            return self.supports(node, "DYNAMIC_QUANT")
        # static: the op must take quantized tensors and hand one on (XNNPACK's dq -> op -> q pattern);
        # an op without static-quant support runs fp32 between XNNPACK's own dq and q conversions
        return self.supports(node, "STATIC_QUANT") and _writes_int8(node)


def _writes_int8(node: torch.fx.Node) -> bool:
    """Its one user quantizes, directly or after a fused activation."""
    if len(node.users) != 1:
        return False
    (user,) = node.users
    if qdq_kind(user.target) == "quantize":
        return True
    return short_name(user.target) in _FUSED_ACTIVATIONS and _writes_int8(user)


def _delegate_params(lowered: Any) -> frozenset[str]:
    sig = lowered.original_module.graph_signature
    return frozenset(
        spec.arg.name for spec in sig.input_specs if spec.kind != torch.export.graph_signature.InputKind.USER_INPUT
    )


def edge_nodes(
    edge_gm: torch.fx.GraphModule, precisions: dict[str, frozenset[str]]
) -> Iterator[tuple[torch.fx.Node, EdgeNode]]:
    """Every call_function node get_delegation_info counts, except the delegate calls and the getitems that
    read a delegate's outputs (plumbing, no converted node's work)."""
    for node in edge_gm.graph.nodes:
        if node.op == "get_attr" and (m := _LOWERED.match(node.name)):
            lowered = getattr(edge_gm, node.target)
            precision = _Precision(_delegate_params(lowered), precisions)
            for inner in lowered.original_module.graph_module.graph.nodes:
                if inner.op == "call_function":
                    yield inner, EdgeNode(inner.name, op_name(inner.target), int(m.group(1)), precision.int8(inner))
        elif node.op == "call_function" and not is_delegate_plumbing(node):
            yield node, EdgeNode(node.name, op_name(node.target), None)


def is_delegate_plumbing(node: torch.fx.Node) -> bool:
    """executorch_call_delegate itself, or a getitem taking one of its outputs."""
    if node.op != "call_function":
        return False
    if "executorch_call_delegate" in str(node.target):
        return True
    return (
        short_name(node.target) == "getitem"
        and isinstance(node.args[0], torch.fx.Node)
        and "executorch_call_delegate" in str(node.args[0].target)
    )


@dataclasses.dataclass
class Delegation:
    nodes: dict[str, NodeOutcome]  # converted node -> outcome
    became: dict[str, list[EdgeNode]]  # converted node -> the ExecuTorch nodes made from it
    unattributed: list[EdgeNode]  # ExecuTorch nodes no converted node made (passes' own nodes)
    removed: list[str]  # converted call_function nodes nothing in the lowered program came from


def read_delegation(
    edge_gm: torch.fx.GraphModule, converted: torch.fx.GraphModule, precisions: dict[str, frozenset[str]]
) -> Delegation:
    """The outcome of each call_function node of `converted` (the module that was exported and lowered);
    `precisions`: what each of XNNPACK's partitioner configs supports, by config name."""
    names = frozenset(n.name for n in converted.graph.nodes)
    graph_id = id(converted.graph)
    became: dict[str, list[EdgeNode]] = {}
    unattributed: list[EdgeNode] = []
    for node, edge in edge_nodes(edge_gm, precisions):
        src = converted_source(node, graph_id, names)
        (became.setdefault(src, []) if src is not None else unattributed).append(edge)
    outcomes: dict[str, NodeOutcome] = {}
    removed: list[str] = []
    for node in converted.graph.nodes:
        if node.op != "call_function":
            continue
        made = became.get(node.name)
        if not made:
            removed.append(node.name)
            continue
        outcomes[node.name] = _outcome(made)
    return Delegation(outcomes, became, unattributed, removed)


def _outcome(made: list[EdgeNode]) -> NodeOutcome:
    ops = " + ".join(dict.fromkeys(e.op for e in made))
    delegated = [e for e in made if e.partition is not None]
    if not delegated:
        return NodeOutcome("portable", kernel=ops)
    if len(delegated) < len(made):  # decomposed, and XNNPACK took only part of it
        reason = i18n.t("error.xnnpack_reason_partly", portable=len(made) - len(delegated), total=len(made))
    else:
        reason = None
    outcome = "delegated-int8" if any(e.int8 for e in delegated) else "delegated-fp32"
    return NodeOutcome(outcome, kernel=ops, reason=reason, partition=delegated[0].partition)
