"""Models and quantizers that trigger (or avoid) each pt2e-lens `why` finding. Shared by tests/test_why_*.py."""

from __future__ import annotations

import dataclasses

import torch
from torch.fx import Node
from torchao.quantization.pt2e.quantizer import annotate_input_qspec_map, annotate_output_qspec

import pt2e_lens as pl
from pt2e_lens._torchao import (
    Q_ANNOTATION_KEY,
    DerivedQuantizationSpec,
    QuantizationAnnotation,
    SharedQuantizationSpec,
    is_observer_module,
)
from pt2e_lens.examples import act_spec, example_inputs, get_model, weight_spec
from pt2e_lens.examples.quantizers import ADD, CONV2D, RELU, AddQuantizer, RuleQuantizer, find

pl.quiet()


def export_gm(name: str, batch: int = 2) -> torch.fx.GraphModule:
    return torch.export.export(get_model(name).eval(), example_inputs(batch)).module()


def unsigned(spec=None):
    """act_spec with quant_min 0: blocks implicit sharing with act_spec on the same tensor."""
    return dataclasses.replace(spec or act_spec(), quant_min=0)


class UnsignedAddQuantizer(RuleQuantizer):
    """Quantizes add's inputs with quant_min=0 while convs use -128: two observers on one tensor."""

    def annotate(self, model):
        for add in find(model, ADD):
            for a in add.args[:2]:
                annotate_input_qspec_map(add, a, unsigned())
            annotate_output_qspec(add, act_spec())
            add.meta[Q_ANNOTATION_KEY]._annotated = True
        return model


class NoImplicitAddQuantizer(AddQuantizer):
    """AddQuantizer whose annotation refuses implicit sharing."""

    def annotate(self, model):
        super().annotate(model)
        for add in find(model, ADD):
            add.meta[Q_ANNOTATION_KEY].allow_implicit_sharing = False
        return model


class SharedAddQuantizer(RuleQuantizer):
    """add's second input and output share the first input edge's observer explicitly."""

    def annotate(self, model):
        for add in find(model, ADD):
            first, second = add.args[:2]
            annotate_input_qspec_map(add, first, act_spec())
            annotate_input_qspec_map(add, second, SharedQuantizationSpec((first, add)))
            annotate_output_qspec(add, SharedQuantizationSpec((first, add)))
            add.meta[Q_ANNOTATION_KEY]._annotated = True
        return model


class SharedLaterQuantizer(RuleQuantizer):
    """conv's output shares with relu's output, which comes later (pytorch/ao#4421)."""

    def annotate(self, model):
        conv, relu = find(model, CONV2D)[0], find(model, RELU)[0]
        annotate_input_qspec_map(conv, conv.args[0], act_spec())
        annotate_input_qspec_map(conv, conv.args[1], weight_spec())
        annotate_output_qspec(conv, SharedQuantizationSpec(relu))
        annotate_output_qspec(relu, act_spec())
        return model


class SharedUnannotatedQuantizer(RuleQuantizer):
    """relu's input edge shares with the edge relu → relu, which nobody annotates."""

    def annotate(self, model):
        conv, relu = find(model, CONV2D)[0], find(model, RELU)[0]
        annotate_input_qspec_map(conv, conv.args[0], act_spec())
        annotate_output_qspec(conv, act_spec())
        annotate_input_qspec_map(relu, conv, SharedQuantizationSpec((relu, relu)))
        return model


class SharedCycleQuantizer(RuleQuantizer):
    """relu's input edge and output share with each other: no real spec anywhere."""

    def annotate(self, model):
        conv, relu = find(model, CONV2D)[0], find(model, RELU)[0]
        annotate_input_qspec_map(relu, conv, SharedQuantizationSpec(relu))
        annotate_output_qspec(relu, SharedQuantizationSpec((conv, relu)))
        return model


def _derive(obs_or_fqs):
    return torch.tensor([1.0]), torch.tensor([0], dtype=torch.int32)


def derived_spec(sources):
    return DerivedQuantizationSpec(
        derived_from=sources,
        derive_qparams_fn=_derive,
        dtype=torch.int32,
        quant_min=-(2**31),
        quant_max=2**31 - 1,
        qscheme=torch.per_tensor_symmetric,
    )


class DerivedQuantizer(RuleQuantizer):
    """relu's output derives from conv's input and weight edges; `observe_sources=False` leaves them unannotated."""

    def __init__(self, observe_sources: bool):
        super().__init__()
        self.observe_sources = observe_sources

    def annotate(self, model):
        conv, relu = find(model, CONV2D)[0], find(model, RELU)[0]
        if self.observe_sources:
            annotate_input_qspec_map(conv, conv.args[0], act_spec())
            annotate_input_qspec_map(conv, conv.args[1], weight_spec())
        annotate_output_qspec(relu, derived_spec([(conv.args[0], conv), (conv.args[1], conv)]))
        return model


class SelfOverwritingQuantizer(RuleQuantizer):
    """Claims conv's output, then replaces the whole annotation with one for the input only."""

    def annotate(self, model):
        for conv in find(model, CONV2D):
            annotate_output_qspec(conv, act_spec())
            conv.meta[Q_ANNOTATION_KEY]._annotated = True
            conv.meta[Q_ANNOTATION_KEY] = QuantizationAnnotation(input_qspec_map={conv.args[0]: act_spec()})
        return model


class AddAnythingQuantizer(RuleQuantizer):
    """Annotates every add input, model constants included (AddQuantizer skips get_attr inputs)."""

    def annotate(self, model):
        for add in find(model, ADD):
            for a in add.args[:2]:
                if isinstance(a, Node):
                    annotate_input_qspec_map(add, a, act_spec())
            annotate_output_qspec(add, act_spec())
        return model


class AddConstant(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("offset", torch.ones(1, 3, 1, 1))

    def forward(self, x):
        return torch.relu(x) + self.offset


class PerTensorFirstConvQuantizer(RuleQuantizer):
    """Like ConvQuantizer, but the first conv's weight is per-tensor."""

    def annotate(self, model):
        for i, conv in enumerate(find(model, CONV2D)):
            w = weight_spec() if i else dataclasses.replace(act_spec(), quant_min=-127)
            annotate_input_qspec_map(conv, conv.args[0], act_spec())
            annotate_input_qspec_map(conv, conv.args[1], w)
            annotate_output_qspec(conv, act_spec())
            conv.meta[Q_ANNOTATION_KEY]._annotated = True
        return model


# -- reading torchao's own objects in a prepared graph


def observer_nodes(gm: torch.fx.GraphModule) -> list[Node]:
    return [n for n in gm.graph.nodes if n.op == "call_module" and is_observer_module(gm.get_submodule(n.target))]


def node(gm: torch.fx.GraphModule, name: str) -> Node:
    return next(n for n in gm.graph.nodes if n.name == name)


def _strip(n: Node, gm) -> Node:
    while n.op == "call_module" and is_observer_module(gm.get_submodule(n.target)):
        n = n.args[0]
    return n


def instance_serving(gm: torch.fx.GraphModule, member: str):
    """The observer module instance torchao put on `src→dst` or on `name (output)` in the prepared graph."""
    if "→" in member:
        src, dst = member.split("→")
        for arg in node(gm, dst).all_input_nodes:
            if (
                arg.op == "call_module"
                and is_observer_module(gm.get_submodule(arg.target))
                and _strip(arg, gm).name == src
            ):
                return gm.get_submodule(arg.target)
        return None
    name = member.removesuffix(" (output)")
    out = next(
        (u for u in node(gm, name).users if u.op == "call_module" and is_observer_module(gm.get_submodule(u.target))),
        None,
    )
    return gm.get_submodule(out.target) if out is not None else None
