"""The rule quantizers of course chapter M03-6: find ops by target, leave `_annotated` nodes alone."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch.fx import Node
from torchao.quantization.pt2e.quantizer import annotate_input_qspec_map, annotate_output_qspec

from .. import i18n
from .._torchao import Q_ANNOTATION_KEY, ComposableQuantizer, Quantizer
from ..errors import Pt2eLensError
from ..prepare.presets import PRESETS
from .qspecs import act_spec, weight_spec

CONV2D = torch.ops.aten.conv2d.default
RELU = torch.ops.aten.relu.default
ADD = torch.ops.aten.add.Tensor


def find(gm: torch.fx.GraphModule, target) -> list[Node]:
    return [n for n in gm.graph.nodes if n.op == "call_function" and n.target == target]


def done(*nodes: Node) -> bool:
    """Whether any of these nodes was already annotated (and claimed) by an earlier quantizer."""
    return any((a := n.meta.get(Q_ANNOTATION_KEY)) is not None and a._annotated for n in nodes)


def label_conv(conv: Node, out: Node) -> None:
    """Annotate conv's activation and weight inputs, and the output spec on `out` (conv or its relu)."""
    annotate_input_qspec_map(conv, conv.args[0], act_spec())
    annotate_input_qspec_map(conv, conv.args[1], weight_spec())
    annotate_output_qspec(out, act_spec())
    for node in (conv, out):
        node.meta[Q_ANNOTATION_KEY]._annotated = True


class RuleQuantizer(Quantizer):
    def validate(self, model: torch.fx.GraphModule) -> None:
        pass


class ConvQuantizer(RuleQuantizer):
    """Quantize conv2d; `include(node) -> bool` picks which convs (default: all)."""

    def __init__(self, include: Callable[[Node], bool] | None = None):
        super().__init__()
        self.include = include

    def annotate(self, model):
        for conv in find(model, CONV2D):
            if not done(conv) and (self.include is None or self.include(conv)):
                label_conv(conv, conv)
        return model


class ConvReluQuantizer(RuleQuantizer):
    """Quantize conv + relu as one pattern: the output spec sits on relu, nothing between them."""

    def annotate(self, model):
        for relu in find(model, RELU):
            conv = relu.args[0]
            if (
                isinstance(conv, Node)
                and conv.op == "call_function"
                and conv.target == CONV2D
                and len(conv.users) == 1
                and not done(conv, relu)
            ):
                label_conv(conv, relu)
        return model


class AddQuantizer(RuleQuantizer):
    """Quantize add's activation inputs and output (not scalars or model constants)."""

    def annotate(self, model):
        for add in find(model, ADD):
            inputs = [a for a in add.args[:2] if isinstance(a, Node) and a.op != "get_attr"]
            if inputs and not done(add):
                for a in inputs:
                    annotate_input_qspec_map(add, a, act_spec())
                annotate_output_qspec(add, act_spec())
                add.meta[Q_ANNOTATION_KEY]._annotated = True
        return model


def _x86() -> Quantizer:
    return PRESETS["x86"].build()  # the same X86InductorQuantizer the workbench offers


_QUANTIZERS = {
    "conv": ConvQuantizer,
    "conv_relu": ConvReluQuantizer,
    "composable": lambda: ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer(), AddQuantizer()]),
    "x86": _x86,
}


def quantizer_by_name(name: str) -> Quantizer:
    """The CLI's `--quantizer` choices."""
    if name not in _QUANTIZERS:
        raise Pt2eLensError(i18n.t("error.unknown_quantizer", name=repr(name), choices=", ".join(_QUANTIZERS)))
    return _QUANTIZERS[name]()
