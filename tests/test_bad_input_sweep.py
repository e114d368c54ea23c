"""The bad-input sweep's API cases (issue 18, point 8; docs/errors.md, "The sweep"): each was a raw
traceback, a misleading line or silently accepted; each is now one line that says what to do."""

from __future__ import annotations

import math

import pytest
import torch
from torch import nn

import pt2e_lens as pl
from pt2e_lens.display import MIME
from pt2e_lens.examples import ConvQuantizer, RuleQuantizer, calibration_batches, example_inputs, get_model
from pt2e_lens.schema.packed import unpack


def one_line(excinfo) -> str:
    msg = str(excinfo.value)
    assert "\n" not in msg and len(msg) < 400, msg
    return msg


@pytest.fixture(scope="module")
def run() -> pl.Run:
    return pl.capture(
        get_model("conv_relu").eval(), example_inputs(2), ConvQuantizer(), calibration=calibration_batches(2, 2)
    )


@pytest.mark.parametrize("overlay", ["bogus", 42, {"conv2d": 1.0}])
def test_a_bad_overlay_is_refused_at_show(run, overlay):
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.show(run["converted"], overlay=overlay)
    assert "overlay" in one_line(e) and "pl.accuracy" in str(e.value)


def test_nan_and_inf_in_an_overlay_display_as_the_contracts_strings(run):
    node = pl.snapshot(run["converted"]).nodes[1]["id"]
    values = {node: math.nan, "relu": math.inf}
    view = pl.show(run["converted"], overlay={"name": "m", "unit": None, "higher_is_better": True, "values": values})
    shown = unpack(view._repr_mimebundle_()[MIME])
    assert shown["panes"][0]["overlay"]["values"] == {node: "NaN", "relu": "Infinity"}


class Int8Scale(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.register_buffer("q8", torch.tensor([1, 2, 3, 4], dtype=torch.int8))

    def forward(self, x):
        return self.conv(x) * self.q8.float().view(1, 4, 1, 1)


def test_accuracy_on_a_model_with_an_int8_buffer():
    x = (torch.randn(2, 3, 8, 8),)
    acc = pl.accuracy(pl.capture(Int8Scale().eval(), x, ConvQuantizer(), calibration=[x]), [x])
    conv = next(r for r in acc.rows if r[0] == "conv2d")
    assert conv[2] is not None and conv[2] > 10  # SQNR in dB, from torchao's compare_results


class Quoted(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.add_module('a"b', nn.Conv2d(3, 4, 3))

    def forward(self, x):
        return getattr(self, 'a"b')(x)


def test_a_submodule_name_with_a_quote_is_one_line():
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.capture(Quoted().eval(), (torch.randn(2, 3, 8, 8),), ConvQuantizer())
    assert 'a"b' in one_line(e) and "rename" in str(e.value)


def test_compare_chain_accuracy_arguments(run):
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.compare([(run["exported"],), (run["converted"],)])
    assert "(x, 'label')" in one_line(e)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.chain(run["exported"], "conv2d", until=5)
    assert "until" in one_line(e)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.accuracy(run, 5)
    assert "iterable of input tuples" in one_line(e)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.accuracy(run["converted"], calibration_batches(1, 2))
    assert "whole pl.Run" in one_line(e) and "run.convert()" not in str(e.value)


def test_run_of_a_run_or_a_stage_or_a_graph_with_inputs(run):
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(run)
    assert "a pl.Run already" in one_line(e) and "example_inputs is required" not in str(e.value)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(run["converted"])
    assert "stage.exported_program" in one_line(e)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(run["exported"].exported_program, example_inputs(2))
    assert "would be ignored" in one_line(e)


def test_dynamic_batch_arguments():
    model = get_model("conv_relu").eval()
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(model, example_inputs(2), dynamic_batch="yes")
    assert "dynamic_batch= is True or False" in one_line(e)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(model, example_inputs(1), dynamic_batch=True)
    assert "batch size 1" in one_line(e) and "dynamic_batch=False" not in str(e.value)


def test_a_snapshot_whose_node_count_lies_is_refused(run):
    text = pl.snapshot(run["exported"]).to_json()
    n = len(pl.snapshot(run["exported"]).nodes)
    assert f'"node_count":{n},' in text
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Snapshot.from_json(text.replace(f'"node_count":{n},', f'"node_count":{n + 5},', 1))
    assert "node_count" in one_line(e)


def test_observers_of_a_run_read_the_stage_that_has_them(run):
    rows = pl.observers(run).rows
    assert rows and rows == pl.observers(run["calibrated"]).rows
    assert not pl.observers(run["converted"]).rows  # the newest stage: none left


class WritesAString(RuleQuantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.op == "call_function":
                n.meta["quantization_annotation"] = "int8"
        return model


def test_a_quantizer_writing_a_string_is_not_blamed_on_the_export_mode():
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.Run(get_model("conv_relu").eval(), example_inputs(2)).prepare(WritesAString())
    msg = one_line(e)
    assert "'int8' (a str)" in msg and "QuantizationAnnotation" in msg and "strict" not in msg
