"""A SharedQuantizationSpec circle, a shared spec that points at a string and a spec that is a plain string
are each named for what they are — not "points at a later anchor" — in pl.capture's error and in pl.check."""

import warnings

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens._torchao import QuantizationAnnotation, Quantizer, SharedQuantizationSpec
from pt2e_lens.examples import example_inputs, get_model


def _relu(m):
    return next(n for n in m.graph.nodes if n.target in (torch.ops.aten.relu.default, torch.ops.aten.relu_.default))


class TwoNodeCircle(Quantizer):
    def annotate(self, m):
        relu = _relu(m)
        conv = relu.args[0]
        conv.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=SharedQuantizationSpec(relu))
        relu.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=SharedQuantizationSpec(conv))
        return m

    def validate(self, m):
        pass


class SharesWithItself(Quantizer):
    def annotate(self, m):
        relu = _relu(m)
        relu.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=SharedQuantizationSpec(relu))
        return m

    def validate(self, m):
        pass


class SharesWithAName(Quantizer):
    def annotate(self, m):
        relu = _relu(m)
        relu.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=SharedQuantizationSpec("conv2d"))
        return m

    def validate(self, m):
        pass


class StringSpec(Quantizer):
    def annotate(self, m):
        conv = _relu(m).args[0]
        conv.meta["quantization_annotation"] = QuantizationAnnotation(
            input_qspec_map={conv.args[0]: "int8"}, output_qspec="int8"
        )
        return m

    def validate(self, m):
        pass


CASES = [
    (TwoNodeCircle, "shared-cycle", "circle of SharedQuantizationSpecs"),
    (SharesWithItself, "shared-cycle", "circle of SharedQuantizationSpecs"),
    (SharesWithAName, "shared-bad-target", "SharedQuantizationSpec('conv2d')"),
    (StringSpec, "not-a-spec", "'int8' (str) as its spec"),
]


@pytest.mark.parametrize("quantizer, kind, words", CASES, ids=[c[0].__name__ for c in CASES])
def test_capture_error_names_the_real_problem(quantizer, kind, words):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(pl.Pt2eLensError) as e:
            pl.capture(get_model("conv_relu").eval(), example_inputs(2), quantizer())
    msg = str(e.value)
    assert words in msg and "\n" not in msg
    assert "later" not in msg  # not the ao#4421 explanation


@pytest.mark.parametrize("quantizer, kind, words", CASES, ids=[c[0].__name__ for c in CASES])
def test_check_lists_the_real_problem(quantizer, kind, words):
    rows = pl.check(quantizer(), get_model("conv_relu").eval(), example_inputs(2)).rows
    assert [r[0] for r in rows] == [kind] or (kind == "not-a-spec" and {r[0] for r in rows} == {kind})
    assert words in rows[0][2]
