"""Qualcomm QNN's concat pattern, rebuilt without importing ExecuTorch's Qualcomm backend (its import tries to
download the QNN SDK): an observer whose constructor gets the fx `Graph` and a node name and keeps the concat
`Node`, its input nodes and, once calibrating, the observer modules of those inputs, whose ranges it widens to
its own so that every input of a cat shares one scale.

Mirrors executorch/backends/qualcomm/quantizer/observers/concat_observer.py (`ConcatObserver(node_name,
graph)`) and the `Cat` annotator of annotators/htp_rules.py (`ConcatObserver.with_args(node_name=…,
graph=node.graph)` as the cat's output spec).
"""

import torch
from torchao.quantization.pt2e import UniformQuantizationObserverBase
from torchao.quantization.pt2e.observer import HistogramObserver, MinMaxObserver, PerChannelMinMaxObserver

from pt2e_lens._torchao import QuantizationAnnotation, QuantizationSpec, Quantizer

aten = torch.ops.aten


class ConcatLikeObserver(UniformQuantizationObserverBase):
    """The range of all tensors a cat concatenates, written into its inputs' observers (as QNN's does)."""

    def __init__(self, node_name, graph, dtype=torch.uint8, qscheme=torch.per_tensor_affine, **kwargs):
        super().__init__(dtype=dtype, qscheme=qscheme, **kwargs)
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))
        self.concat_node = [node for node in graph.nodes if node.name == node_name][0]
        self.input_nodes = self.concat_node.args[0]
        self.input_observers = []

    def forward(self, x_orig):
        min_val, max_val = torch.aminmax(x_orig.detach())
        self.min_val = min(self.min_val, min_val)
        self.max_val = max(self.max_val, max_val)
        if not self.input_observers:  # the observers of its inputs exist only once prepare inserted them
            for node in self.input_nodes:
                obs_node = [user for user in node.users if user != self.concat_node][0]
                self.input_observers.append(getattr(obs_node.graph.owning_module, obs_node.name))
        for observer in self.input_observers:
            observer.min_val = self.min_val
            observer.max_val = self.max_val
        return x_orig

    @torch.jit.export
    def calculate_qparams(self):
        return self._calculate_qparams(self.min_val, self.max_val)


_ACT = QuantizationSpec(
    dtype=torch.uint8,
    quant_min=0,
    quant_max=255,
    qscheme=torch.per_tensor_affine,
    is_dynamic=False,
    observer_or_fake_quant_ctr=MinMaxObserver,
)
_WEIGHT = QuantizationSpec(
    dtype=torch.int8,
    quant_min=-128,
    quant_max=127,
    qscheme=torch.per_channel_symmetric,
    ch_axis=0,
    is_dynamic=False,
    observer_or_fake_quant_ctr=PerChannelMinMaxObserver,
)


class ConcatLikeQuantizer(Quantizer):
    """conv2d: input and weight; cat: each input, and its output through ConcatLikeObserver (QNN's pattern)."""

    def annotate(self, model: torch.fx.GraphModule) -> torch.fx.GraphModule:
        for node in model.graph.nodes:
            if node.op != "call_function":
                continue
            if node.target == aten.conv2d.default:
                node.meta["quantization_annotation"] = QuantizationAnnotation(
                    input_qspec_map={node.args[0]: _ACT, node.args[1]: _WEIGHT}, output_qspec=_ACT, _annotated=True
                )
            elif node.target in (aten.cat.default, aten.concat.default):
                output = QuantizationSpec(
                    dtype=torch.uint8,
                    quant_min=0,
                    quant_max=255,
                    qscheme=torch.per_tensor_affine,
                    is_dynamic=False,
                    observer_or_fake_quant_ctr=ConcatLikeObserver.with_args(node_name=node.name, graph=node.graph),
                )
                hist = QuantizationSpec(
                    dtype=torch.uint8,
                    quant_min=0,
                    quant_max=255,
                    qscheme=torch.per_tensor_affine,
                    is_dynamic=False,
                    observer_or_fake_quant_ctr=HistogramObserver,
                )
                node.meta["quantization_annotation"] = QuantizationAnnotation(
                    input_qspec_map={inp: hist for inp in node.args[0]}, output_qspec=output, _annotated=True
                )
        return model

    def validate(self, model: torch.fx.GraphModule) -> None:
        pass


class TwoBranchCat(torch.nn.Module):
    """Two convs concatenated, then a third conv: the cat's inputs and output are all observed."""

    def __init__(self) -> None:
        super().__init__()
        self.a = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.b = torch.nn.Conv2d(3, 4, 1)
        self.head = torch.nn.Conv2d(8, 2, 1)

    def forward(self, x):
        return self.head(torch.cat([self.a(x), 3.0 * self.b(x)], 1))
