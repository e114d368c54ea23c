"""pl.recipe and pl.KeepFp32: the fewest fp32 sites for a target SQNR, as a real torchao quantizer whose code
pastes, verified by a new capture; checked in the graphs torchao's own prepare_pt2e makes with it."""

import copy
import importlib
import warnings

import pytest
import torch

import pt2e_lens as pl
from pt2e_lens._torchao import Quantizer, is_observer_module, prepare_pt2e
from pt2e_lens.examples import OutlierNet, image_batches, xnnpack_quantizer
from pt2e_lens.why.sensitivity import sqnr_db

TARGET = 30.0
recipe_module = importlib.import_module("pt2e_lens.why.recipe")  # pl.why.recipe is the function


@pytest.fixture(scope="module")
def made():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batches = image_batches(3)
        run = pl.capture(OutlierNet().eval(), batches[0], xnnpack_quantizer(), calibration=batches)
        table = pl.sensitivity(run, batches, only=False)
        recipe = pl.recipe(run, batches, target_sqnr=TARGET, sensitivity_table=table)
    return run, batches, table, recipe


def _observer_instances(gm):
    called = [gm.get_submodule(n.target) for n in gm.graph.nodes if n.op == "call_module"]
    return {id(m) for m in called if is_observer_module(m)}


def _prepare(quantizer, run):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return prepare_pt2e(copy.deepcopy(run["exported"].graph_module), quantizer)


def test_the_recipe_keeps_the_outlier_weight_and_its_capture_meets_the_target(made):
    run, batches, table, recipe = made
    assert table.baseline_db < TARGET  # the outlier ruins the fully quantized model
    assert [s.tensor for s in recipe.sites] == ["conv2_weight"]
    assert recipe.met and recipe.verified_db >= TARGET and recipe.predicted_db >= TARGET
    # the verified number is the verifying capture's own output against the float model
    float_out = [run["exported"].graph_module(*b) for b in batches]
    with torch.no_grad():
        again = sqnr_db(float_out, [recipe.run["converted"].graph_module(*b) for b in batches])
    assert recipe.verified_db == pytest.approx(again)
    assert abs(recipe.verified_db - recipe.predicted_db) < 3  # prediction and capture agree
    assert f"{recipe.predicted_db:.2f}" in recipe.title and f"{recipe.verified_db:.2f}" in recipe.title


def test_the_quantizer_is_torchaos_and_prepare_leaves_that_weight_unobserved(made):
    run, _, _, recipe = made
    assert isinstance(recipe.quantizer, Quantizer) and isinstance(recipe.quantizer, pl.KeepFp32)
    plain = _prepare(xnnpack_quantizer(), run)
    kept = _prepare(recipe.quantizer, run)
    assert len(_observer_instances(kept)) == len(_observer_instances(plain)) - 1
    conv = next(n for n in kept.graph.nodes if n.name == "conv2d_1")
    weight = conv.args[1]
    assert weight.op == "get_attr"  # straight from the parameter: no observer on that edge
    conv_plain = next(n for n in plain.graph.nodes if n.name == "conv2d_1")
    assert conv_plain.args[1].op == "call_module"


def test_the_code_pastes_into_a_fresh_namespace_as_an_equivalent_quantizer(made):
    run, _, _, recipe = made
    print(recipe.code)
    namespace = {"quantizer": xnnpack_quantizer()}
    exec(recipe.code, namespace)
    pasted = namespace["quantizer"]
    assert isinstance(pasted, pl.KeepFp32)
    assert (pasted.edges, pasted.outputs) == (recipe.quantizer.edges, recipe.quantizer.outputs)
    a = pl.annotations(_prepare(pasted, run)).rows
    b = pl.annotations(_prepare(recipe.quantizer, run)).rows
    assert a == b and a != pl.annotations(_prepare(xnnpack_quantizer(), run)).rows
    assert "pl.KeepFp32(" in str(recipe)  # printing the recipe shows the code


def test_an_activation_group_drops_every_member_edge_and_output(made):
    run, _, table, _ = made
    site = next(s for s in table.sites if s.tensor == "relu_1")  # relu_1 → mean → linear share one observer
    edges = [k[1:] for k in site.keys if k[0] == "edge"]
    outputs = [k[1] for k in site.keys if k[0] == "node"]
    kept = _prepare(pl.KeepFp32(xnnpack_quantizer(), edges=edges, outputs=outputs), run)
    plain = _prepare(xnnpack_quantizer(), run)
    assert len(_observer_instances(kept)) == len(_observer_instances(plain)) - 1
    relu = next(n for n in kept.graph.nodes if n.name == "relu_1")
    assert not any(u.op == "call_module" for u in relu.users)


def test_max_fp32_sites_zero_keeps_none_and_says_the_target_is_not_met(made):
    run, batches, table, _ = made
    r = pl.recipe(run, batches, target_sqnr=TARGET, max_fp32_sites=0, sensitivity_table=table)
    assert r.sites == [] and not r.met
    assert r.verified_db == pytest.approx(table.baseline_db, abs=0.5)  # the same quantizer, captured again
    assert "max_fp32_sites" in r.title


def test_bad_input_is_one_line(made):
    run, batches, _, _ = made
    with pytest.raises(pl.Pt2eLensError, match="target_sqnr"):
        pl.recipe(run, batches, target_sqnr="high")
    with pytest.raises(pl.Pt2eLensError, match="wraps a torchao Quantizer"):
        pl.KeepFp32("xnnpack")
    with pytest.raises(pl.Pt2eLensError, match="no node 'nope'|no node nope"):
        _prepare(pl.KeepFp32(xnnpack_quantizer(), outputs=["nope"]), run)


def test_the_testing_xnnpack_quantizer_refuses_set_module_name_none():
    """The limit KeepFp32 exists for (docs/accuracy.md): torchao's testing XNNPACKQuantizer asserts."""
    with pytest.raises(AssertionError):
        xnnpack_quantizer().set_module_name("conv2", None)


def test_a_target_already_met_needs_no_sweep(made, monkeypatch):
    run, batches, table, _ = made
    swept = []
    real = recipe_module.sensitivity
    monkeypatch.setattr(recipe_module, "sensitivity", lambda *a, **k: swept.append(1) or real(*a, **k))
    met = pl.recipe(run, batches, target_sqnr=table.baseline_db - 1.0)
    assert swept == [] and met.sites == [] and met.met  # every site quantized is good enough: keep none fp32
    assert met.verified_db == pytest.approx(table.baseline_db)  # the run's own converted graph, measured
    pl.recipe(run, batches, target_sqnr=table.baseline_db + 1.0)
    assert swept == [1]  # a target above it still sweeps, once
