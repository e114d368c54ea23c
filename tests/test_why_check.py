"""pl.check: each problem comes with a quantizer that triggers it (and torchao's own failure, where it fails)."""

import pytest
import torch
from _why_models import (
    AddAnythingQuantizer,
    AddConstant,
    DerivedQuantizer,
    SelfOverwritingQuantizer,
    SharedCycleQuantizer,
    SharedLaterQuantizer,
    SharedUnannotatedQuantizer,
    export_gm,
    node,
)
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

import pt2e_lens as pl
from pt2e_lens._copy import private_copy
from pt2e_lens._torchao import Q_ANNOTATION_KEY, ComposableQuantizer, QuantizationAnnotation
from pt2e_lens.examples import AddQuantizer, ConvQuantizer, ConvReluQuantizer, example_inputs, get_model
from pt2e_lens.examples.quantizers import CONV2D, RuleQuantizer, find, quantizer_by_name


class MeddlingQuantizer(RuleQuantizer):
    def annotate(self, model):
        for conv in find(model, CONV2D):
            conv.meta[Q_ANNOTATION_KEY] = QuantizationAnnotation()
        return model


@pytest.fixture(scope="module")
def conv_relu():
    return export_gm("conv_relu")


def kinds(table):
    return [r[0] for r in table.rows]


@pytest.mark.parametrize(
    "quantizer, kind, torchao_error",
    [
        (SharedLaterQuantizer, "shared-later", AssertionError),
        (SharedUnannotatedQuantizer, "shared-unannotated", KeyError),
        (SharedCycleQuantizer, "shared-cycle", RecursionError),
    ],
)
def test_shared_spec_problems_predict_torchao_crashes(conv_relu, quantizer, kind, torchao_error):
    with pytest.raises(torchao_error):
        prepare_pt2e(private_copy(conv_relu), quantizer())
    table = pl.check(quantizer(), conv_relu)
    assert table.name == "check" and kinds(table) == [kind]
    assert set(table.rows[0][1]) <= {n.name for n in conv_relu.graph.nodes}
    with pytest.raises(pl.Pt2eLensError) as e:  # Run.prepare turns the bare error into the check's message
        pl.Run(conv_relu).prepare(quantizer())
    assert str(e.value) == f"prepare_pt2e raised {torchao_error.__name__}: {table.rows[0][2]}"
    assert not any(Q_ANNOTATION_KEY in n.meta for n in conv_relu.graph.nodes)


def test_derived_spec_needs_observed_sources(conv_relu):
    table = pl.check(DerivedQuantizer(observe_sources=False), conv_relu)
    assert kinds(table) == ["derived-unobserved"]
    assert {"relu", "conv2d", "x"} <= set(table.rows[0][1])
    assert kinds(pl.check(DerivedQuantizer(observe_sources=True), conv_relu)) == []


def test_overwritten_annotation_inside_one_quantizer(conv_relu):
    table = pl.check(SelfOverwritingQuantizer(), conv_relu)
    assert kinds(table) == ["overwritten"] and table.rows[0][1] == ["conv2d"]
    ann = node(pl.Run(conv_relu).prepare(SelfOverwritingQuantizer())["annotated"].graph_module, "conv2d").meta[
        Q_ANNOTATION_KEY
    ]
    assert ann.output_qspec is None  # torchao kept the last write: the claimed output spec is gone


def test_overwritten_annotation_in_a_composable_quantizer(conv_relu):
    q = ComposableQuantizer([ConvQuantizer(), MeddlingQuantizer()])
    with pytest.raises(RuntimeError, match="MeddlingQuantizer has changed annotations on node conv2d"):
        prepare_pt2e(private_copy(conv_relu), ComposableQuantizer([ConvQuantizer(), MeddlingQuantizer()]))
    table = pl.check(q, conv_relu)
    assert kinds(table) == ["overwritten"]
    assert "first written by ConvQuantizer" in table.rows[0][2]


def test_spec_on_a_constant():
    model = AddConstant()
    table = pl.check(AddAnythingQuantizer(), model, (torch.randn(2, 3, 4, 4),))
    assert kinds(table) == ["spec-on-constant"]
    gm = torch.export.export(model, (torch.randn(2, 3, 4, 4),)).module()
    const = node(gm, table.rows[0][1][0])
    assert const.op == "get_attr" and not isinstance(getattr(gm, const.target), torch.nn.Parameter)
    assert kinds(pl.check(AddQuantizer(), model, (torch.randn(2, 3, 4, 4),))) == []


def test_good_quantizers_have_no_problems():
    tiny = get_model("tiny").eval()
    assert (
        kinds(
            pl.check(
                ComposableQuantizer([ConvReluQuantizer(), ConvQuantizer(), AddQuantizer()]), tiny, example_inputs(2)
            )
        )
        == []
    )
    table = pl.check(quantizer_by_name("x86"), tiny, example_inputs(2))
    assert kinds(table) == [] and table.title.endswith("no problems found")


def test_annotate_errors_are_reported_not_raised(conv_relu):
    class Broken(RuleQuantizer):
        def annotate(self, model):
            raise ValueError("no idea")

    table = pl.check(Broken(), conv_relu)
    assert kinds(table) == ["annotate-failed"] and "Broken.annotate raised ValueError: no idea" in table.rows[0][2]
    with pytest.raises(pl.Pt2eLensError, match="needs torchao Quantizer"):
        pl.check("conv", conv_relu)
