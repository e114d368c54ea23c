"""An annotation built in steps is no overwrite (issue 25): ExecuTorch's Cadence quantizer writes a node's output
spec first and then adds each input to that same QuantizationAnnotation object. Nothing is lost, so pl.check and
the findings report nothing; a replaced annotation or a changed spec still loses something and is reported.

The oracle is torchao's own prepare_pt2e on the same graph and quantizer: which specs end up in the annotation
and how many observers it inserts."""

import pytest
import torch
from _why_models import export_gm, node
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

import pt2e_lens as pl
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import Q_ANNOTATION_KEY, ComposableQuantizer, QuantizationAnnotation, is_observer_module
from pt2e_lens.examples import act_spec, weight_spec
from pt2e_lens.examples.quantizers import CONV2D, RuleQuantizer, find


class StepwiseQuantizer(RuleQuantizer):
    """Cadence's way: claim the conv with its output spec, then put input and weight into the same object."""

    def annotate(self, model):
        for conv in find(model, CONV2D):
            conv.meta[Q_ANNOTATION_KEY] = QuantizationAnnotation(output_qspec=act_spec(), _annotated=True)
            for arg, spec in ((conv.args[0], act_spec()), (conv.args[1], weight_spec())):
                ann = conv.meta.get(Q_ANNOTATION_KEY, QuantizationAnnotation(_annotated=True))
                ann.input_qspec_map[arg] = spec
                conv.meta[Q_ANNOTATION_KEY] = ann
        return model


class ChangesItsClaimedSpec(RuleQuantizer):
    """Claims the conv's output, then swaps that spec for another one in the same object: the first is lost."""

    def annotate(self, model):
        for conv in find(model, CONV2D):
            conv.meta[Q_ANNOTATION_KEY] = QuantizationAnnotation(output_qspec=act_spec(), _annotated=True)
            ann = conv.meta[Q_ANNOTATION_KEY]
            ann.output_qspec = weight_spec()
            conv.meta[Q_ANNOTATION_KEY] = ann
        return model


class ReplacingQuantizer(RuleQuantizer):
    """A second quantizer that replaces whatever annotation a conv has with its own."""

    def annotate(self, model):
        for conv in find(model, CONV2D):
            conv.meta[Q_ANNOTATION_KEY] = QuantizationAnnotation(input_qspec_map={conv.args[0]: act_spec()})
        return model


@pytest.fixture(scope="module")
def conv_relu():
    return export_gm("conv_relu")


def observer_count(gm: torch.fx.GraphModule) -> int:
    return sum(1 for n in gm.graph.nodes if n.op == "call_module" and is_observer_module(gm.get_submodule(n.target)))


def overwritten(run) -> list[dict]:
    return [f for s in run.stages for f in pl.snapshot(run[s]).findings if f["kind"] == "overwritten"]


def test_an_annotation_grown_in_place_is_no_overwrite(conv_relu):
    theirs = prepare_pt2e(private_copy(conv_relu), StepwiseQuantizer())
    ann = node(theirs, "conv2d").meta[Q_ANNOTATION_KEY]
    assert ann.output_qspec is not None and len(ann.input_qspec_map) == 2  # torchao keeps all three specs
    assert pl.check(StepwiseQuantizer(), conv_relu).rows == []
    run = pl.Run(conv_relu).prepare(StepwiseQuantizer())
    assert overwritten(run) == []
    assert observer_count(run["prepared"].graph_module) == observer_count(theirs) == 3


def test_a_changed_claimed_spec_is_still_reported(conv_relu):
    theirs = prepare_pt2e(private_copy(conv_relu), ChangesItsClaimedSpec())
    assert (
        node(theirs, "conv2d").meta[Q_ANNOTATION_KEY].output_qspec.qscheme == torch.per_channel_symmetric
    )  # first lost
    rows = pl.check(ChangesItsClaimedSpec(), conv_relu).rows
    assert [(r[0], r[1]) for r in rows] == [("overwritten", ["conv2d"])]
    assert "changed after it was claimed" in rows[0][2]


def test_a_second_quantizer_replacing_a_stepwise_annotation_is_reported(conv_relu):
    with pytest.raises(RuntimeError, match="ReplacingQuantizer has changed annotations on node conv2d"):
        prepare_pt2e(private_copy(conv_relu), ComposableQuantizer([StepwiseQuantizer(), ReplacingQuantizer()]))
    rows = pl.check(ComposableQuantizer([StepwiseQuantizer(), ReplacingQuantizer()]), conv_relu).rows
    assert [(r[0], r[1]) for r in rows] == [("overwritten", ["conv2d"])]
    assert "first written by StepwiseQuantizer" in rows[0][2]


class ConvReluLinear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.fc = torch.nn.Conv2d(3, 8, 3), torch.nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).mean((2, 3)))


def test_cadence_reports_no_overwrite():
    cadence = pytest.importorskip("executorch.backends.cadence.aot.quantizer.quantizer")
    compiler_funcs = pytest.importorskip("executorch.backends.cadence.aot.compiler_funcs")
    torch.manual_seed(0)
    x = (torch.randn(2, 3, 8, 8),)
    q = cadence.CadenceDefaultQuantizer()
    # Cadence's own trace: strict export, its patterns' ops kept out of the decomposition
    ep = compiler_funcs.trace(
        ConvReluLinear().eval(), x, strict=True, ops_to_keep=q.get_ops_to_preserve_from_decomposition()
    )
    theirs = prepare_pt2e(private_copy(ep.module()), cadence.CadenceDefaultQuantizer())
    grown = [
        n for n in theirs.graph.nodes if (a := n.meta.get(Q_ANNOTATION_KEY)) and a.output_qspec and a.input_qspec_map
    ]
    assert grown  # the nodes Cadence annotated in two steps kept output and input specs
    assert pl.check(q, ep).rows == []
    run = pl.Run(ep).prepare(q).calibrate([x]).convert()
    assert overwritten(run) == []
    assert observer_count(run["prepared"].graph_module) == observer_count(theirs)
