"""The findings corpus: for each rule, models where it must fire and models where it must not, judged by
torchao's real prepared / converted graphs (observer modules, q/dq ops, annotations in node.meta), with
torchao's own XNNPACK / X86Inductor quantizers and ours."""

import pytest
import torch
from _corpus_models import (
    CatSharesConvInputQuantizer,
    ConvCat,
    DropoutBetweenLinears,
    DynamicAndStatic,
    MobileNetBlock,
    PerTensorHead,
    ResNetBlock,
    ViTBlock,
    per_tensor_weights,
    real_fp32_ops,
)
from _why_models import AddAnythingQuantizer, AddConstant, observer_nodes
from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
    X86InductorQuantizer,
    get_default_x86_inductor_quantization_config,
)
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens._torchao import Q_ANNOTATION_KEY, ComposableQuantizer
from pt2e_lens.examples import ConvReluQuantizer

TOKENS = (torch.randn(2, 4, 16),)
IMAGE = (torch.randn(2, 3, 8, 8),)


def xnnpack(per_channel=True):
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=per_channel))


def x86():
    return X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())


def capture(model, inputs, quantizer, **kw):
    torch.manual_seed(0)
    return pl.capture(model.eval(), inputs, quantizer, calibration=[inputs], **kw)


def of_kind(stage, kind):
    return [f for f in pl.snapshot(stage).findings if f["kind"] == kind]


def reported_fp32_ops(stage) -> set[str]:
    """The ops the fp32-island findings name (their observers/q-dq and eval no-ops left out)."""
    snap = pl.snapshot(stage)
    named = {n for f in of_kind(stage, "fp32-island") for n in f["nodes"]}
    return {n for n in named if snap.node[n]["role"] == "compute" and snap.node[n]["target"] != "dropout"}


@pytest.fixture(scope="module")
def vit_xnnpack():
    return capture(ViTBlock(), TOKENS, xnnpack())


CORPUS = {
    "vit-xnnpack": lambda: capture(ViTBlock(), TOKENS, xnnpack()),
    "vit-x86": lambda: capture(ViTBlock(), TOKENS, x86()),
    "resnet-xnnpack": lambda: capture(ResNetBlock(), IMAGE, xnnpack()),
    "resnet-x86": lambda: capture(ResNetBlock(), IMAGE, x86(), strict=True),
    "mobilenet-xnnpack": lambda: capture(MobileNetBlock(), IMAGE, xnnpack()),
    "mobilenet-x86": lambda: capture(MobileNetBlock(), IMAGE, x86()),
    "resnet-ours": lambda: capture(ResNetBlock(), IMAGE, ConvReluQuantizer()),
}


@pytest.fixture(scope="module", params=sorted(CORPUS))
def corpus_run(request):
    return CORPUS[request.param]()


def test_fp32_islands_are_exactly_the_real_graphs_fp32_runs(corpus_run):
    for stage in ("prepared", "converted"):
        gm = corpus_run[stage].graph_module
        assert reported_fp32_ops(corpus_run[stage]) == real_fp32_ops(gm), stage


def test_no_weight_is_called_per_tensor_when_every_real_weight_is_per_channel(corpus_run):
    assert per_tensor_weights(corpus_run["prepared"].graph_module) == set()
    assert not of_kind(corpus_run["prepared"], "per-tensor-weight")
    assert not of_kind(corpus_run["converted"], "per-tensor-weight")


def test_islands_of_two_or_more_ops_and_the_advice_per_op(vit_xnnpack):
    prepared = vit_xnnpack["prepared"]
    islands = {
        tuple(n for n in f["nodes"] if not n.startswith("activation_post_process")): f["message"]
        for f in of_kind(prepared, "fp32-island")
    }
    assert set(islands) == {("gelu", "dropout"), ("layer_norm", "transpose", "transpose_1")}
    gm = prepared.graph_module
    gelu = next(n for n in gm.graph.nodes if n.name == "gelu")
    assert gelu.args[0].op == "call_module" and next(iter(gelu.users)).name == "dropout"  # no observer between
    # gelu and layer_norm make new values: their own specs, never a SharedQuantizationSpec to the input
    assert "their own input and output specs" in islands[("gelu", "dropout")]
    assert "layer_norm" in islands[("layer_norm", "transpose", "transpose_1")].split("annotate ")[-1]
    assert "dropout pass values through unchanged" in islands[("gelu", "dropout")]


def test_eval_dropout_alone_is_no_island():
    run = capture(DropoutBetweenLinears(), (torch.randn(2, 8),), xnnpack())
    gm = run["prepared"].graph_module
    drop = next(n for n in gm.graph.nodes if "dropout" in str(n.target))
    assert drop.args[0].op == "call_module" and next(iter(drop.users)).op == "call_module"  # observed both sides
    assert not of_kind(run["prepared"], "fp32-island") and not of_kind(run["converted"], "fp32-island")


def test_scalars_embeddings_and_layer_scales_are_no_weights(vit_xnnpack):
    gm = vit_xnnpack["prepared"].graph_module
    per_tensor_obs = {
        n.args[0].name
        for n in observer_nodes(gm)
        if n.args[0].op == "get_attr"
        and gm.get_submodule(n.target).qscheme in (torch.per_tensor_affine, torch.per_tensor_symmetric)
    }
    assert {"pos", "layer_scale", "_tensor_constant_0"} <= per_tensor_obs  # quantized per-tensor, yet no weights
    assert not of_kind(vit_xnnpack["prepared"], "per-tensor-weight")


def test_a_per_tensor_conv_weight_among_per_channel_ones():
    head = XNNPACKQuantizer().set_module_type(torch.nn.Linear, get_symmetric_quantization_config(is_per_channel=False))
    run = capture(PerTensorHead(), IMAGE, ComposableQuantizer([head, xnnpack()]))
    real = per_tensor_weights(run["prepared"].graph_module)
    assert real == {"linear"}
    (found,) = of_kind(run["prepared"], "per-tensor-weight")
    assert set(found["nodes"]) == real
    (after,) = of_kind(run["converted"], "per-tensor-weight")
    conv = run["converted"].graph_module
    (dq,) = after["nodes"]
    assert any(u.name == "linear" for u in next(n for n in conv.graph.nodes if n.name == dq).users)


def test_xnnpacks_own_scalar_constant_is_no_spec_on_constant(vit_xnnpack):
    exported = {n.name for n in vit_xnnpack["exported"].graph_module.graph.nodes}
    annotated = vit_xnnpack["annotated"].graph_module
    made = [n for n in annotated.graph.nodes if n.op == "get_attr" and n.name not in exported]
    assert [n.name for n in made] == ["_tensor_constant_0"]  # XNNPACK's transform_for_annotation made it
    for stage in vit_xnnpack:
        assert not of_kind(stage, "spec-on-constant"), stage.name
    assert [r[0] for r in pl.check(xnnpack(), ViTBlock().eval(), TOKENS).rows] == []
    # a user's own buffer still is one
    assert [r[0] for r in pl.check(AddAnythingQuantizer(), AddConstant(), IMAGE).rows] == ["spec-on-constant"]


def test_static_next_to_dynamic_is_no_mismatch():
    dynamic = XNNPACKQuantizer().set_module_type(torch.nn.Linear, get_symmetric_quantization_config(is_dynamic=True))
    run = capture(DynamicAndStatic(), (torch.randn(2, 16),), ComposableQuantizer([dynamic, xnnpack(False)]))
    gm = run["prepared"].graph_module
    on_x = {id(gm.get_submodule(n.target)) for n in observer_nodes(gm) if n.args[0].name == "x"}
    assert len(on_x) == 2  # two observers on x: one static, one dynamic (PlaceholderObserver)
    converted = run["converted"].graph_module
    assert any(str(n.target).endswith("quantize_per_tensor.tensor") for n in converted.graph.nodes)
    for stage in ("prepared", "converted"):
        assert not of_kind(run[stage], "mismatched-observers"), stage


def test_mismatch_counts_every_instance_watching_the_tensor():
    run = capture(ConvCat(), IMAGE, CatSharesConvInputQuantizer())
    gm = run["prepared"].graph_module
    cat = next(n for n in gm.graph.nodes if n.name == "cat")
    relu = next(n for n in gm.graph.nodes if n.name == "relu")
    on_t = {id(gm.get_submodule(str(cat.args[0][1].target))), id(gm.get_submodule(str(relu.args[0].target)))}
    assert len(on_t) == 2 and cat.args[0][1].args[0].name == relu.args[0].args[0].name == "conv2d"
    (found,) = of_kind(run["prepared"], "mismatched-observers")
    assert found["nodes"][0] == "conv2d" and "conv2d has 2 observers" in found["message"], found["message"]


def test_two_sub_quantizers_of_one_class_are_told_apart():
    first = XNNPACKQuantizer().set_module_name("fc1", get_symmetric_quantization_config())
    q = ComposableQuantizer([first, xnnpack()])
    run = pl.Run(ViTBlock().eval(), TOKENS).prepare(q)
    rows = {r[0]: (r[1], r[2]) for r in pl.blame(run).rows}
    assert rows["linear"] == ("[0] XNNPACKQuantizer", "[1] XNNPACKQuantizer")
    assert rows["linear_1"][0] == "[1] XNNPACKQuantizer"
    single = {r[1] for r in pl.blame(pl.Run(ViTBlock().eval(), TOKENS).prepare(xnnpack())).rows}
    assert single == {"XNNPACKQuantizer"}


def test_core_decomposition_is_named_as_the_cause_not_the_export_mode():
    run = pl.Run(ResNetBlock().eval(), IMAGE).decompose("core")
    with pytest.raises(pl.Pt2eLensError) as e:
        run.prepare(xnnpack())
    assert "adaptive_avg_pool2d into mean" in str(e.value) and "strict" not in str(e.value)
    with pytest.raises(ValueError, match="mean is not an aten adaptive_avg_pool2d"):  # what torchao raised
        raise e.value.original


def test_why_lines_agree_with_the_real_annotations(corpus_run):
    annotated = corpus_run["annotated"].graph_module
    snap = pl.snapshot(corpus_run["prepared"])
    for n in annotated.graph.nodes:
        if n.op != "call_function" or n.name not in snap.node:
            continue
        first = snap.node[n.name]["why"][0]
        ann = n.meta.get(Q_ANNOTATION_KEY)
        has = ann is not None and (
            ann._annotated or ann.output_qspec is not None or any(s is not None for s in ann.input_qspec_map.values())
        )
        assert first.startswith(("annotated by", "claimed by")) == has, (n.name, first)
        assert first.startswith("not annotated") == (not has), (n.name, first)
