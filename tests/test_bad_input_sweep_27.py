"""The bad-input sweep of issue 27 (point 6; docs/errors.md, "The sweep of issue 27"): each case was a raw
traceback, a misleading line or silently accepted; each is now one line that says what to do."""

from __future__ import annotations

import types
import warnings
from concurrent.futures import Executor, Future

import pytest
import torch
from IPython.core.error import UsageError
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

import pt2e_lens as pl
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model
from pt2e_lens.kernel.magics import PARSERS, Pt2eMagics, _focus
from pt2e_lens.kernel.tracker import Tracker


def one_line(excinfo) -> str:
    msg = str(excinfo.value)
    assert "\n" not in msg and len(msg) < 400, msg
    return msg


@pytest.fixture(scope="module")
def ptq():
    batches = calibration_batches(2, 2)
    run = pl.capture(get_model("conv_relu").eval(), example_inputs(2), ConvQuantizer(), calibration=batches)
    return run, batches


class _SubmitRaises(Executor):
    def submit(self, fn, *args, **kwargs):
        raise RuntimeError("cluster is gone")


class _TaskFails(Executor):
    def submit(self, fn, *args, **kwargs):
        f: Future = Future()
        f.set_exception(OSError("worker lost"))
        return f


def _raises(f, q):
    raise ZeroDivisionError("boom")


SENSITIVITY = [  # (keyword arguments or batches, words the line must hold)
    ({"batches": 5}, "needs an iterable of input tuples"),
    ({"batches": None}, "needs an iterable of input tuples"),
    ({"metric": _raises}, "metric raised ZeroDivisionError: boom"),
    ({"metric": lambda f, q: "0.5"}, "metric returned a str: it must return a number"),
    ({"metric": 3}, "metric=…) is a function"),
    ({"executor": object()}, "concurrent.futures.Executor"),
    ({"executor": _SubmitRaises()}, "executor.submit raised RuntimeError: cluster is gone"),
    ({"executor": _TaskFails()}, "a sweep task failed on the executor: OSError: worker lost"),
    ({"chunks": "x"}, "chunks=…) is a whole number ≥ 1"),
    ({"chunks": -3}, "chunks=…) is a whole number ≥ 1"),
    ({"only": "no"}, "only=…) is True or False"),
]


@pytest.mark.parametrize(("kwargs", "words"), SENSITIVITY)
def test_sensitivity_refuses_in_one_line(ptq, kwargs, words):
    run, batches = ptq
    kwargs = dict(kwargs)
    given = kwargs.pop("batches", batches)
    stages = run.stages
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.sensitivity(run, given, **kwargs)
    assert words in one_line(e)
    assert run.stages == stages


@pytest.fixture(scope="module")
def table(ptq):
    run, batches = ptq
    return pl.sensitivity(run, batches, only=False)


RECIPE = [
    ({"max_fp32_sites": "x"}, "max_fp32_sites=…) is a whole number ≥ 0"),
    ({"max_fp32_sites": -3}, "max_fp32_sites=…) is a whole number ≥ 0"),
    ({"max_fp32_sites": 1.7}, "max_fp32_sites=…) is a whole number ≥ 0"),
    ({"sensitivity_table": "x"}, "of this same run"),
    ({"name": "my quantizer!"}, "a Python identifier"),
    ({"name": "class"}, "a Python identifier"),
    ({"executor": object()}, "concurrent.futures.Executor"),
]


@pytest.mark.parametrize(("kwargs", "words"), RECIPE)
def test_recipe_refuses_in_one_line(ptq, kwargs, words):
    run, batches = ptq
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.recipe(run, batches, target_sqnr=30, **kwargs)
    assert words in one_line(e)


def test_recipe_refuses_a_table_of_another_run(ptq, table):
    run, batches = ptq
    other = pl.capture(get_model("conv_relu").eval(), example_inputs(2), ConvQuantizer(), calibration=batches)
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.recipe(other, batches, target_sqnr=30, sensitivity_table=table)
    assert "of this same run" in one_line(e)
    recipe = pl.recipe(run, batches, target_sqnr=30, sensitivity_table=table)  # its own table is taken
    assert recipe.verified_db == recipe.verified_db


def test_a_nan_batch_is_named_once(ptq):
    run, batches = ptq
    bad = [batches[0], (torch.full_like(batches[1][0], float("nan")),)]
    with pytest.warns(pl.Pt2eLensWarning, match="batch 1 holds NaN or inf"):
        pl.sensitivity(run, bad, only=False)


def _qat_quantizer(is_qat=True):
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_qat=is_qat))


@pytest.fixture(scope="module")
def qat():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)).train()
    x = (torch.randn(2, 3, 8, 8),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = pl.Run(model, x).prepare_qat(_qat_quantizer())
    return model, x, run


@pytest.mark.qat_convert  # prepare_qat_pt2e's conv-bn rewrite is slow: full tier (tests/_tiers.py)
def test_train_refuses_a_string_optimizer_and_a_nan_loss(qat):
    _, x, run = qat
    batch = [(x[0], torch.zeros(2, 4, 6, 6))]
    stages = run.stages
    with pytest.raises(pl.Pt2eLensError) as e:
        run.train(batch, loss=torch.nn.functional.mse_loss, optimizer="sgd")
    assert "is a factory: params → a torch.optim.Optimizer" in one_line(e)
    with pytest.raises(pl.Pt2eLensError) as e:
        run.train(batch, loss=lambda out, t: out.sum() * float("nan"))
    assert "the loss is nan" in one_line(e) and "zero_point range" not in str(e.value)
    assert run.stages == stages


@pytest.mark.qat_convert  # prepare_qat_pt2e's conv-bn rewrite is slow: full tier (tests/_tiers.py)
def test_capture_refuses_qat_yes_and_a_ptq_quantizer_on_the_qat_path(qat):
    model, x, _ = qat
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.capture(model, x, _qat_quantizer(), qat="yes")
    assert "qat= is True or False" in one_line(e)
    with pytest.raises(pl.Pt2eLensError) as e, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pl.capture(model, x, _qat_quantizer(is_qat=False), qat=True)
    assert "no fake-quantize module" in one_line(e) and "is_qat=True" in str(e.value)


@pytest.fixture(scope="module")
def magics(ptq):
    run, batches = ptq
    user_ns = {"run": run, "batches": batches, "open": open, "nope_fn": len}
    return Pt2eMagics(types.SimpleNamespace(user_ns=user_ns), Tracker(user_ns))


MAGICS = [
    ("sensitivity run nope", "no variable", "open"),  # suggests data only, never a builtin such as open
    ("lower xnnpack run --no-freezing", "--no-freezing is an Inductor option", None),
    ("watch run --auto", "not both", None),
]


@pytest.mark.parametrize(("line", "words", "absent"), MAGICS)
def test_magics_refuse_in_one_line(magics, line, words, absent):
    with pytest.raises(UsageError) as e:
        magics.pt2e(line)
    text = str(e.value)
    assert words in text and "\n" not in text
    assert absent is None or absent not in text


def test_show_keeps_every_focus():
    args = PARSERS["show"].parse_args(["x", "--focus", "a", "--focus", "b,c"])
    assert _focus(args) == ["a", "b", "c"]


def test_compare_names_a_per_pane_focus_of_the_wrong_length(ptq):
    run, _ = ptq
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.compare(run["prepared"], run["converted"], focus=[["conv2d"]])
    assert "one list per pane (2), got 1" in one_line(e)
    assert pl.compare(run["prepared"], run["converted"], focus=[["conv2d"], None]) is not None


def test_capture_refuses_float64_inputs_to_a_float32_model():
    with pytest.raises(pl.Pt2eLensError) as e:
        pl.capture(get_model("conv_relu").eval(), (example_inputs(2)[0].double(),), ConvQuantizer())
    assert "example input 0 is float64, the model's weights are float32" in one_line(e)


def test_accuracy_names_a_nan_batch(ptq):
    run, batches = ptq
    with pytest.warns(pl.Pt2eLensWarning, match="pl.accuracy: batch 0 holds NaN or inf"):
        pl.accuracy(run, [(torch.full_like(batches[0][0], float("nan")),)])


def test_exercise_with_a_list_for_a_name():
    from pt2e_lens.examples import exercise

    with pytest.raises(pl.Pt2eLensError) as e:
        exercise(["m00_3.chain"], 1)
    assert "m00_3.chain" in one_line(e)


def test_pictures_on_a_view_without_its_fields_and_a_notebook_without_cells(tmp_path, capsys):
    import json

    from pt2e_lens.display import MIME
    from pt2e_lens.pictures import main

    out = {"output_type": "display_data", "data": {MIME: {"schema_version": 1}}}
    (tmp_path / "v.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "outputs": [out]}]}))
    (tmp_path / "n.ipynb").write_text(json.dumps({"nbformat": 4}))
    for name, words in (("v.ipynb", "missing the field"), ("n.ipynb", "cells is missing, expected a list")):
        before = (tmp_path / name).read_text()
        assert main([str(tmp_path / name)]) == 1
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err and "Traceback" not in err
        assert (tmp_path / name).read_text() == before


def test_lower_xnnpack_refuses_an_option_the_partitioner_ignores(ptq):
    pytest.importorskip("executorch")
    run, _ = ptq
    stages = run.stages
    with pytest.raises(pl.Pt2eLensError) as e:
        run.lower("xnnpack", bogus=1)
    assert "bogus (it takes configs, config_precisions, per_op_mode, verbose)" in one_line(e)
    assert run.stages == stages
