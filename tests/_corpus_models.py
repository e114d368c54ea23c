"""Small torchvision-style blocks for the findings corpus (torchvision itself is not installed here), and
the oracles that read torch's own graphs: which ops really run in fp32 between quantized tensors."""

from __future__ import annotations

import dataclasses
import operator

import torch
from torch import nn
from torch.fx import Node
from torchao.quantization.pt2e.quantizer import annotate_input_qspec_map, annotate_output_qspec

from pt2e_lens._targets import qdq_kind
from pt2e_lens._torchao import Q_ANNOTATION_KEY, SharedQuantizationSpec, is_observer_module
from pt2e_lens.examples import act_spec
from pt2e_lens.examples.quantizers import CONV2D, RuleQuantizer, find


class ViTBlock(nn.Module):
    """A ViT/gpt-style block: positional embedding, LayerNorm → transpose, MLP Linear→GELU→Dropout→Linear,
    a layer_scale Parameter and `x * 0.5`."""

    def __init__(self, d: int = 16, tokens: int = 4):
        super().__init__()
        self.pos = nn.Parameter(torch.randn(1, tokens, d))
        self.fc1, self.act, self.drop, self.fc2 = nn.Linear(d, 2 * d), nn.GELU(), nn.Dropout(0.1), nn.Linear(2 * d, d)
        self.ln = nn.LayerNorm(d)
        self.layer_scale = nn.Parameter(torch.ones(d))
        self.head = nn.Linear(d, d)

    def forward(self, x):
        x = x + self.pos
        y = self.fc2(self.drop(self.act(self.fc1(x)))) * self.layer_scale
        y = y * 0.5
        z = self.ln(y).transpose(1, 2)
        return self.head(z.transpose(1, 2))


class DropoutBetweenLinears(nn.Module):
    """Linear → eval Dropout → Linear: the dropout is a no-op, no island."""

    def __init__(self):
        super().__init__()
        self.a, self.drop, self.b = nn.Linear(8, 8), nn.Dropout(0.5), nn.Linear(8, 8)

    def forward(self, x):
        return self.b(self.drop(self.a(x)))


class ResNetBlock(nn.Module):
    """A resnet stem + basic block + head: conv-bn-relu, maxpool, residual add, adaptive avgpool, linear."""

    def __init__(self, c: int = 8):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(3, c, 3, padding=1), nn.BatchNorm2d(c)
        self.pool = nn.MaxPool2d(2)
        self.conv2, self.bn2 = nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c)
        self.conv3, self.bn3 = nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c)
        self.avg, self.fc = nn.AdaptiveAvgPool2d(1), nn.Linear(c, 4)

    def forward(self, x):
        x = self.pool(torch.relu(self.bn1(self.conv1(x))))
        y = self.bn3(self.conv3(torch.relu(self.bn2(self.conv2(x)))))
        x = torch.relu(x + y)
        return self.fc(torch.flatten(self.avg(x), 1))


class MobileNetBlock(nn.Module):
    """A mobilenet-v3-style block: depthwise conv, hardswish, squeeze-excite (mean → linear → hardsigmoid → mul)."""

    def __init__(self, c: int = 8):
        super().__init__()
        self.expand, self.dw = nn.Conv2d(3, c, 1), nn.Conv2d(c, c, 3, padding=1, groups=c)
        self.act = nn.Hardswish()
        self.se1, self.se2, self.gate = nn.Conv2d(c, 4, 1), nn.Conv2d(4, c, 1), nn.Hardsigmoid()
        self.project = nn.Conv2d(c, 4, 1)

    def forward(self, x):
        x = self.act(self.dw(self.expand(x)))
        s = self.gate(self.se2(torch.relu(self.se1(x.mean((2, 3), keepdim=True)))))
        return self.project(x * s)


class PerTensorHead(nn.Module):
    """Two convs and a linear: a quantizer config can make one of them per-tensor."""

    def __init__(self):
        super().__init__()
        self.stem, self.body, self.head = nn.Conv2d(3, 8, 3), nn.Conv2d(8, 8, 3), nn.Linear(8, 4)

    def forward(self, x):
        return self.head(self.body(torch.relu(self.stem(x))).mean((2, 3)))


class DynamicAndStatic(nn.Module):
    """x feeds a dynamically quantized linear and a statically quantized add."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc(x) + x


# -- oracles read off torch's graphs


NO_OPS = ("dropout",)


def _claimed(n: Node) -> bool:
    ann = n.meta.get(Q_ANNOTATION_KEY)
    if ann is None:
        return False
    return ann._annotated or ann.output_qspec is not None or any(s is not None for s in ann.input_qspec_map.values())


def qparams_nodes(gm: torch.fx.GraphModule) -> set[Node]:
    """What convert inserted to compute a dynamic quantize's qparams: ops of the quantization namespaces that are
    no q/dq (`quantized_decomposed.choose_qparams.tensor`) and the getitems that unpack them."""
    out: set[Node] = set()
    for n in gm.graph.nodes:
        namespace = getattr(n.target, "namespace", None)
        if n.op == "call_function" and namespace in ("quantized_decomposed", "torchao") and qdq_kind(n.target) is None:
            out.add(n)
        elif n.op == "call_function" and n.target is operator.getitem and n.args[0] in out:
            out.add(n)
    return out


def real_fp32_ops(gm: torch.fx.GraphModule) -> set[str]:
    """Unannotated ops a value reaches from an observer / dequantize and leaves into one / a quantize,
    without passing another: what runs in fp32 between quantized tensors in this real graph."""

    def is_obs(n: Node) -> bool:
        return n.op == "call_module" and is_observer_module(gm.get_submodule(str(n.target)))

    def start(n: Node) -> bool:
        return is_obs(n) or (n.op == "call_function" and qdq_kind(n.target) == "dequantize")

    def end(n: Node) -> bool:
        return is_obs(n) or (n.op == "call_function" and qdq_kind(n.target) == "quantize")

    inserted = qparams_nodes(gm)
    free = [
        n
        for n in gm.graph.nodes
        if n.op == "call_function" and qdq_kind(n.target) is None and not _claimed(n) and n not in inserted
    ]
    up: set[Node] = set()
    for n in free:
        if any(start(a) or a in up for a in n.all_input_nodes):
            up.add(n)
    down: set[Node] = set()
    for n in reversed(free):
        if any(end(u) or u in down for u in n.users):
            down.add(n)
    return {n.name for n in up & down if not any(s in str(n.target) for s in NO_OPS)}


def per_tensor_weights(gm: torch.fx.GraphModule) -> set[str]:
    """conv/linear nodes whose weight (argument 1) passes through a per-tensor observer in a prepared graph."""
    out = set()
    for n in gm.graph.nodes:
        if n.op != "call_function" or not any(k in str(n.target) for k in ("conv", "linear")):
            continue
        w = n.args[1]
        if isinstance(w, Node) and w.op == "call_module":
            obs = gm.get_submodule(str(w.target))
            if is_observer_module(obs) and obs.qscheme in (torch.per_tensor_affine, torch.per_tensor_symmetric):
                out.add(n.name)
    return out


class ConvCat(nn.Module):
    """t = conv(x) feeds a cat (next to x) and a relu."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 1)

    def forward(self, x):
        t = self.conv(x)
        return torch.cat([x, t], 1), torch.relu(t)


class CatSharesConvInputQuantizer(RuleQuantizer):
    """cat's inputs share the conv's input-edge observer (signed, on x); relu quantizes t unsigned: t is
    watched by two instances, one of them anchored on another tensor (x)."""

    def annotate(self, model):
        for conv in find(model, CONV2D):
            annotate_input_qspec_map(conv, conv.args[0], act_spec())
            for user in conv.users:
                if user.target == torch.ops.aten.cat.default:
                    for a in user.args[0]:
                        annotate_input_qspec_map(user, a, SharedQuantizationSpec((conv.args[0], conv)))
                    annotate_output_qspec(user, SharedQuantizationSpec((conv.args[0], conv)))
                if user.target == torch.ops.aten.relu.default:
                    annotate_input_qspec_map(user, conv, dataclasses.replace(act_spec(), quant_min=0))
        return model
