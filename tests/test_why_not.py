"""`pl.why_not` and the snapshot's `Node.why`: which quantizer and which of its annotators annotated a node,
looked at it and left it, or that nothing matched; which annotation requested an observer. Checked against
torchao's own objects: its annotator table, the annotations in node.meta, the prepared graph's observers."""

import json
from importlib.resources import files

import jsonschema
import pytest
import torch
from _corpus_models import ResNetBlock, ViTBlock
from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import X86InductorQuantizer
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
from torchao.testing.pt2e._xnnpack_quantizer_utils import OP_TO_ANNOTATOR

import pt2e_lens as pl
from pt2e_lens._torchao import Q_ANNOTATION_KEY, ComposableQuantizer, prepare_pt2e
from pt2e_lens.examples import ConvQuantizer, ConvReluQuantizer

SCHEMA = json.loads(files("pt2e_lens").joinpath("schema/view.schema.json").read_text())
TOKENS = (torch.randn(2, 4, 16),)
IMAGE = (torch.randn(2, 3, 8, 8),)


def xnnpack():
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))


def lines(x, node):
    return [r[1] for r in pl.why_not(x, node).rows]


def node(gm, name):
    return next(n for n in gm.graph.nodes if n.name == name)


@pytest.fixture(scope="module")
def vit():
    torch.manual_seed(0)
    return pl.capture(ViTBlock().eval(), TOKENS, xnnpack(), calibration=[TOKENS])


def test_the_annotator_that_wrote_a_node_is_torchaos_own(vit):
    annotated = vit["annotated"].graph_module
    assert Q_ANNOTATION_KEY in node(annotated, "linear").meta
    assert lines(vit["prepared"], "linear") == [
        f"annotated by XNNPACKQuantizer in {OP_TO_ANNOTATOR['linear'].__name__}"
    ]
    assert lines(vit["prepared"], "add") == [f"annotated by XNNPACKQuantizer in {OP_TO_ANNOTATOR['add'].__name__}"]


def test_an_op_nothing_matched_says_so_and_that_it_is_an_island(vit):
    assert Q_ANNOTATION_KEY not in node(vit["annotated"].graph_module, "gelu").meta
    assert "gelu" not in OP_TO_ANNOTATOR
    assert lines(vit["prepared"], "gelu") == [
        "not annotated: XNNPACKQuantizer has no annotator for gelu — nothing in that quantizer handles this op",
        "it runs in fp32 between quantized ops (an fp32 island: see the findings)",
    ]


def test_an_observer_names_the_annotation_that_requested_it(vit):
    gm = vit["prepared"].graph_module
    obs = next(n for n in gm.graph.nodes if n.op == "call_module" and n.args and n.args[0].name == "linear")
    (line,) = lines(vit["prepared"], obs.name)
    assert line.startswith("requested by the annotation of linear (XNNPACKQuantizer) for the output of linear: int8")
    assert gm.get_submodule(obs.target).__class__.__name__ in line  # the observer class the spec asked for


def test_every_node_of_a_quantizing_stage_has_why_and_the_contract_holds(vit):
    for stage in vit:
        snap = pl.snapshot(stage)
        has = {"why" in n for n in snap.nodes}
        assert has == ({True} if stage.name != "exported" else {False}), stage.name
        jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(snap.to_json()))
    converted = pl.snapshot(vit["converted"])
    q = next(q for q in converted.qdq if q["kind"] == "quantize")
    assert converted.node[q["node"]]["why"] == [
        f"inserted by convert_pt2e for observer {q['from_observer']}: quantizes {q['tensor']}"
    ]


def test_x86_annotators_are_named_by_their_method():
    run = pl.Run(ResNetBlock().eval(), IMAGE, strict=True).prepare(
        X86InductorQuantizer().set_global(
            __import__(
                "torchao.quantization.pt2e.quantizer.x86_inductor_quantizer", fromlist=["x"]
            ).get_default_x86_inductor_quantization_config()
        )
    )
    (line,) = lines(run["prepared"], "conv2d")
    fn = line.rpartition(" in ")[2]
    assert line.startswith("annotated by X86InductorQuantizer in _annotate_conv2d") and hasattr(
        X86InductorQuantizer, fn
    )


def test_a_later_sub_quantizer_that_skipped_the_node_is_named_by_position():
    first = XNNPACKQuantizer().set_module_name("fc1", get_symmetric_quantization_config())
    run = pl.Run(ViTBlock().eval(), TOKENS).prepare(ComposableQuantizer([first, xnnpack()]))
    assert lines(run["prepared"], "linear") == [
        "annotated by [0] XNNPACKQuantizer in _annotate_linear",
        "[1] XNNPACKQuantizer found it already annotated and left it (the first quantizer to annotate a node owns it)",
    ]


def test_our_rule_quantizers_and_a_graph_prepared_elsewhere():
    model = ResNetBlock().eval()
    run = pl.Run(model, IMAGE).prepare(ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer()]))
    assert lines(run["prepared"], "conv2d")[0] == "annotated by ConvReluQuantizer in annotate"
    plain = prepare_pt2e(torch.export.export(model, IMAGE).module(), ConvQuantizer())
    assert lines(plain, "max_pool2d")[0].startswith("not annotated; pt2e-lens did not watch")
    with pytest.raises(pl.Pt2eLensError, match="no node named 'nope'"):
        pl.why_not(plain, "nope")


def test_lines_speak_the_locale():
    try:
        pl.set_locale("zh-TW")
        run = pl.Run(ViTBlock().eval(), TOKENS).prepare(xnnpack())
        assert lines(run["prepared"], "linear") == ["由 XNNPACKQuantizer 標註（在 _annotate_linear 裡）"]
    finally:
        pl.set_locale("en")
