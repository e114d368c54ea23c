"""`pl.why_not` names the one reason a node is (not) quantized, for real quantizers nobody here wrote, checked
against each quantizer's own annotated graph (the quantizer run by plain `prepare_pt2e`, stopped after
annotate) and its own objects (its filters, its sub-quantizers, its config):

- XNNPACKQuantizer: gelu has no annotator (not in OP_TO_ANNOTATOR); `set_module_type(nn.Linear, None)` — the
  filter said no; views fed by an unannotated op — propagate_annotation read their input and stopped;
- X86InductorQuantizer: `set_module_name_qconfig(name, None)` keeps the node fp32 (the user's None config, not a
  fused pattern); attention's inner linears are not among get_source_partitions' nn.Linear/F.linear;
- Cadence and Cortex-M (ExecuTorch, ComposableQuantizer subclasses): the sub-quantizer that wrote each node.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch
from torch import nn
from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as x86q
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
from torchao.testing.pt2e._xnnpack_quantizer_utils import OP_TO_ANNOTATOR

import pt2e_lens as pl
from pt2e_lens._torchao import Q_ANNOTATION_KEY, ComposableQuantizer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.why_specific import FEATURES, IMAGE, TOKENS, ConvMlp, Encoder, Mlp, torchao_annotated  # noqa: E402

pl.quiet()


def xnnpack():
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))


def x86():
    return x86q.X86InductorQuantizer().set_global(x86q.get_default_x86_inductor_quantization_config())


def why(run, node):
    return [r[1] for r in pl.why_not(run["annotated"], node).rows]


def real(gm, name):
    return next(n for n in gm.graph.nodes if n.name == name)


def specs(n) -> bool:
    a = n.meta.get(Q_ANNOTATION_KEY)
    return a is not None and (a.output_qspec is not None or any(s is not None for s in a.input_qspec_map.values()))


@pytest.fixture(scope="module")
def xnn_encoder():
    torch.manual_seed(0)
    model = Encoder().eval()
    return pl.Run(model, TOKENS).prepare(xnnpack()), torchao_annotated(model, TOKENS, xnnpack, False)


def test_an_op_no_annotator_handles_is_said_so_not_that_a_scan_looked_at_it(xnn_encoder):
    run, gm = xnn_encoder
    for name, op in (("gelu", "gelu"), ("layer_norm", "layer_norm"), ("embedding", "embedding")):
        assert op not in OP_TO_ANNOTATOR and Q_ANNOTATION_KEY not in real(gm, name).meta
        assert why(run, name)[0] == (
            f"not annotated: XNNPACKQuantizer has no annotator for {op} — nothing in that quantizer handles this op"
        )


def test_a_view_propagate_annotation_left_names_the_input_it_read(xnn_encoder):
    run, gm = xnn_encoder
    view = real(gm, "view")
    (source,) = view.all_input_nodes
    # torchao's propagate_annotation shares a view's qparams only with an input whose annotation has an output spec
    assert not specs(view) and not specs(source)
    assert any(specs(n) for n in gm.graph.nodes if n.target == view.target)  # the same op is annotated elsewhere
    assert why(run, "view")[0] == (
        f"not annotated: XNNPACKQuantizer's propagate_annotation checked its input {source.name} for its pattern "
        "and left it — that input did not give the pattern what it needs"
    )
    written = [n.name for n in gm.graph.nodes if n.target == view.target and specs(n)]
    assert why(run, written[0]) == ["annotated by XNNPACKQuantizer in propagate_annotation"]


def test_set_module_type_none_says_the_filter_said_no():
    torch.manual_seed(0)
    model = Mlp().eval()
    make = lambda: xnnpack().set_module_type(nn.Linear, None)  # noqa: E731
    gm = torchao_annotated(model, FEATURES, make, False)
    linear = real(gm, "linear")
    assert Q_ANNOTATION_KEY not in linear.meta
    # the filter torchao's XNNPACKQuantizer hands its global pass answers no for this node
    from torchao.testing.pt2e._xnnpack_quantizer import _get_not_module_type_or_name_filter

    assert _get_not_module_type_or_name_filter([nn.Linear], [])(linear) is False
    run = pl.Run(model, FEATURES).prepare(make())
    assert why(run, "linear")[0] == (
        "not annotated: XNNPACKQuantizer's _annotate_linear matched it, but the filter "
        "not_module_type_or_name_filter said no (set_module_type / set_module_name / the global config's "
        "exclusions decide which nodes it may annotate)"
    )
    assert why(run, "add")[0] == "annotated by XNNPACKQuantizer in _annotate_add"


def test_x86_none_config_is_the_users_choice_not_a_fused_pattern():
    torch.manual_seed(0)
    model = Mlp().eval()
    make = lambda: x86().set_module_name_qconfig("fc1", None)  # noqa: E731
    gm = torchao_annotated(model, FEATURES, make, True)
    linear = real(gm, "linear")
    ann = linear.meta[Q_ANNOTATION_KEY]
    assert ann._annotated and not specs(linear)  # torchao's _annotate_nodes_not_quantize
    assert not any(specs(m) for m in (*linear.all_input_nodes, *linear.users))  # no neighbour has a spec
    run = pl.Run(model, FEATURES, strict=True).prepare(make())
    assert why(run, "linear")[0] == (
        "kept fp32 by X86InductorQuantizer in _annotate_linear: the quantization config for it is None (the "
        "user's None config), so it is marked annotated with no spec and no annotator quantizes it"
    )
    # a claimed node beside a spec (linear+add: add carries none of its own) stays "part of a fused pattern"
    add = real(gm, "add")
    assert add.meta[Q_ANNOTATION_KEY]._annotated and not specs(add) and specs(real(gm, "linear_1"))
    assert why(run, "add")[0].startswith("claimed by X86InductorQuantizer in _annotate_linear_binary_unary as part")


def test_x86_attention_linears_are_not_found_by_its_source_partitions():
    torch.manual_seed(0)
    model = Encoder().eval()
    gm = torchao_annotated(model, TOKENS, x86, True)
    linears = [n for n in gm.graph.nodes if n.target == torch.ops.aten.linear.default]
    left = [n.name for n in linears if Q_ANNOTATION_KEY not in n.meta]
    assert left and any(specs(n) for n in linears)  # the same quantizer annotates the MLP's linears
    from torch.fx.passes.utils.source_matcher_utils import get_source_partitions

    found = {
        n.name
        for ps in get_source_partitions(gm.graph, [nn.Linear, nn.functional.linear]).values()
        for p in ps
        for n in p.nodes
    }
    assert not set(left) & found  # torchao's own search does not return them
    run = pl.Run(model, TOKENS, strict=True).prepare(x86())
    for name in left:
        assert why(run, name)[0] == (
            "not annotated: X86InductorQuantizer's _annotate_linear finds linear through get_source_partitions, "
            "by the module or function a node came from, and this one (from inside MultiheadAttention) is not "
            "among them"
        )


def test_blame_names_cadences_sub_quantizers():
    from executorch.backends.cadence.aot.quantizer.quantizer import CadenceAtenQuantizer, CadenceDefaultQuantizer

    torch.manual_seed(0)
    model = ConvMlp().eval()
    q = CadenceDefaultQuantizer()
    assert isinstance(q, ComposableQuantizer) and type(q) is not ComposableQuantizer
    run = pl.Run(model, IMAGE, strict=True).prepare(q)
    rows = {r[0]: r[1] for r in pl.blame(run).rows}
    subs = q.quantizers
    index = next(i for i, s in enumerate(subs) if type(s.pattern).__name__ == "Conv2dPattern")
    assert isinstance(subs[index], CadenceAtenQuantizer)
    assert rows["conv2d"] == f"[{index}] CadenceAtenQuantizer(Conv2dPattern)"
    assert why(run, "conv2d")[0] == f"annotated by [{index}] CadenceAtenQuantizer(Conv2dPattern) in annotate"
    # the conv's annotation is the one that sub-quantizer alone writes on the same graph
    gm = torchao_annotated(
        model, IMAGE, lambda: CadenceAtenQuantizer(subs[index].pattern, subs[index].quantization_config), True
    )
    assert specs(real(gm, "conv2d"))
    assert "annotate" not in vars(q.quantizers[index])  # the user's sub-quantizers carry no hook afterwards


def test_blame_names_cortex_m_sub_quantizers():
    pytest.importorskip("tosa_serializer", reason="ExecuTorch's Cortex-M quantizer imports tosa-tools")
    from executorch.backends.cortex_m.quantizer.quantizer import CortexMQuantizer

    torch.manual_seed(0)
    model = ConvMlp().eval()
    gm = torch.export.export(model, IMAGE).module(check_guards=False)  # its passes reject export's _guards_fn
    q = CortexMQuantizer()
    run = pl.Run(gm).prepare(q)
    rows = {r[0]: r[1] for r in pl.blame(run).rows}
    real_gm = torchao_annotated(model, IMAGE, CortexMQuantizer, False)
    assert specs(real(real_gm, "linear")) and specs(real(real_gm, "relu"))
    names = [type(s).__name__ for s in q.quantizers]
    assert rows["linear"] == f"[{names.index('PatternQuantizer') + 1}] PatternQuantizer(GlobalNodeFinder)"
    assert rows["relu"] == "SharedQspecQuantizer"
    # conv2d: the per-channel PatternQuantizer's matcher checked it and rejected it (not "nothing handles conv")
    assert Q_ANNOTATION_KEY not in real(real_gm, "conv2d").meta
    assert why(run, "conv2d")[0].startswith(
        "not annotated: [0] PatternQuantizer(NodeTargetNodeFinder)'s annotate checked it"
    )
