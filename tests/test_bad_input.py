"""Bad input: one clear line that says what to do; the user's objects and earlier stages survive."""

import pytest
import torch
from torch import nn
from torchao.quantization.pt2e.quantizer import (
    ComposableQuantizer,
    SharedQuantizationSpec,
    annotate_output_qspec,
)

import pt2e_lens as pl
from pt2e_lens.examples import ConvQuantizer, RuleQuantizer, calibration_batches, example_inputs, get_model
from pt2e_lens.examples.quantizers import RELU, find


def one_line(excinfo) -> str:
    msg = str(excinfo.value)
    assert "\n" not in msg and len(msg) < 400, msg
    return msg


class DataDependent(nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # data-dependent control flow: torch.export refuses it
            return x * 2
        return x


def test_model_not_exportable():
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(DataDependent(), (torch.randn(2, 3),))
    msg = one_line(e)
    assert msg.startswith("torch.export (non-strict export mode) could not capture DataDependent:")
    assert "strict=True" in msg  # the other export mode is named as something to try


def test_example_inputs_not_a_tuple():
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(get_model("conv_relu").eval(), torch.randn(2, 3, 32, 32))
    assert "example_inputs must be a tuple" in one_line(e) and "(x,)" in str(e.value)


def test_static_export_with_other_calibration_size_suggests_dynamic_batch():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(4)).prepare(ConvQuantizer())
    with pytest.raises(pl.Pt2eLensError) as e:
        run.calibrate(calibration_batches(2, 16))
    assert "dynamic_batch=True" in one_line(e)
    assert run.stages == ["exported", "annotated", "prepared"]
    run.calibrate(calibration_batches(1, 4))  # the run still works
    assert "calibrated" in run


class Broken(RuleQuantizer):
    def annotate(self, model):
        raise ValueError("no idea what to do with this graph")


def test_quantizer_that_raises_in_annotate_is_named():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(2))
    with pytest.raises(pl.Pt2eLensError) as e:
        run.prepare(ComposableQuantizer([ConvQuantizer(), Broken()]))
    msg = one_line(e)
    assert msg.startswith("Broken.annotate raised ValueError: no idea what to do")
    assert run.stages == ["exported"]


class SharesWithUnannotatedEdge(RuleQuantizer):
    """conv → relu: relu's output shares with the edge conv→relu, which nobody annotated."""

    def annotate(self, model):
        for relu in find(model, RELU):
            conv = relu.args[0]
            annotate_output_qspec(relu, SharedQuantizationSpec((conv, relu)))
        return model


def test_shared_spec_pointing_at_unannotated_edge_names_the_edge():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(2))
    with pytest.raises(pl.Pt2eLensError) as e:
        run.prepare(SharesWithUnannotatedEdge())
    msg = one_line(e)
    assert "SharedQuantizationSpec points at edge conv2d → relu" in msg


def test_calibrate_and_convert_before_prepare():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(2))
    with pytest.raises(pl.Pt2eLensError, match="call run.prepare"):
        run.calibrate(calibration_batches(1, 2))
    with pytest.raises(pl.Pt2eLensError, match="call run.prepare"):
        run.convert()


def test_nn_module_where_a_graph_is_expected():
    for fn in (pl.op_counts, pl.observers, pl.snapshot, pl.qdq):
        with pytest.raises(pl.Pt2eLensError) as e:
            fn(get_model("conv_relu"))
        assert "export it first" in one_line(e)
    with pytest.raises(pl.Pt2eLensError, match="needs a Stage, a torch.fx.GraphModule"):
        pl.node_count("not a graph")


def test_unknown_stage_and_node_names():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(2))
    with pytest.raises(pl.Pt2eLensError, match="has no 'prepared' stage; it has: exported"):
        run["prepared"]
    with pytest.raises(pl.Pt2eLensError, match="no node named 'conv9'"):
        pl.chain(run["exported"], "conv9")


def test_not_a_quantizer():
    run = pl.Run(get_model("conv_relu").eval(), example_inputs(2))
    with pytest.raises(pl.Pt2eLensError, match="needs a torchao Quantizer"):
        run.prepare("x86")
